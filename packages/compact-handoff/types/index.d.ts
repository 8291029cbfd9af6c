// The state this mod keeps in the session ($.state). Session-scoped, so a hot
// reload (which re-runs register and empties module variables) keeps it all.
// The engine wants this contract self-contained (no imports), so the shapes are
// spelled out here; each hooks folder that owns a value declares its atom in its
// own *-state.ts (run/run-state.ts, thresholds/thresholds-state.ts, ...) and
// reads and writes it as the hooks' own type (run.ts Phase, nudge.ts Nudge,
// user-words.ts UserWords, swap-text.ts LastHandoff), and the mods' type-check
// fails if the two spellings drift apart.
// compact-handoff-answer declares its own read-only view of run.

declare module 'claude-code' {
  interface PluginState {
    'compact-handoff': {
    /** The handoff run under way, or idle (hooks/run/run.ts Phase). */
    run:
      | { kind: 'idle' }
      | { kind: 'launching'; run: CompactHandoffRun; sinceMs: number }
      | { kind: 'writing'; run: CompactHandoffRun; sinceMs: number; turnId?: string; previous?: CompactHandoffChosen }
      | { kind: 'checking'; run: CompactHandoffRun; sinceMs: number; chosen: CompactHandoffChosen }
      | { kind: 'reviewed'; run: CompactHandoffRun; sinceMs: number; swap: CompactHandoffSwap }
      | { kind: 'going'; run: CompactHandoffRun; sinceMs: number; swap: CompactHandoffSwap }
      | { kind: 'swapping'; run: CompactHandoffRun; sinceMs: number; swap: CompactHandoffSwap; isCompacting: boolean }
    /** Whether this context window was already nudged (hooks/thresholds/nudge.ts Nudge). */
    nudge: { kind: 'armed' } | { kind: 'fired'; percent: number }
    /** The person's own prompts, bounded (hooks/words/user-words.ts UserWords). */
    words: { messages: string[]; dropped: number }
    /** The handoff this session continues from: its newest swap, resume or fork handoff (hooks/stub/swap-text.ts LastHandoff). */
    lastHandoff: { kind: 'none' } | { kind: 'handoff'; handoff: string; plan?: string }
    /** The stubs this session installed, newest last, each by its SHA-256, so only their own rows are drawn as one line (hooks/stub-row/stub-row.ts StubRow). */
    stubRows: readonly { kind: 'swap' | 'compaction'; sha256: string; handoff: string; bytes: number }[]
    /** Whether this context window's auto handoff was used (hooks/thresholds/auto-handoff.ts AutoHandoffWindow). */
    autoHandoff: { kind: 'armed' } | { kind: 'spent' }
    /** Whether this context window's main-loop request was refused as too long (hooks/thresholds/window-edge.ts WindowEdge). */
    windowEdge: { kind: 'unrefused' } | { kind: 'refused' }
    /** Option askAfterCompaction: 'pending' after a /compact or automatic
     * compaction of the main loop replaced the conversation; the first
     * main-loop tool call after it takes the flag and asks the person whether
     * Claude may carry on (hooks/ask/ask-steps.ts AskFlag). */
    ask: { kind: 'none' } | { kind: 'pending'; trigger: 'manual' | 'auto' }
    /** What the status line was told: the run's stage text, and the context's use
     * at the latest idle turn's end (hooks/status-line/status-line.ts StatusLineTold). */
    statusLine: { stage: string | null; figure: { kind: 'none' } | { kind: 'full' } | { kind: 'hint' | 'urgent'; percent: number } }
    /** Whether a person is at the prompt (session.start's isInteractive; hooks/run/run-state.ts). */
    interactive: boolean
    /** Main-loop shells moved to the background and not yet seen ended (hooks/background/running.ts RunningShell). */
    shells: readonly { id: string; command: string; startedAtMs: number }[]
    /** The skills invoked in this session, oldest first, texts masked and bounded (hooks/carried/skills.ts InvokedSkills). */
    skills: { skills: { name: string; text?: string; isCut: boolean }[]; forgotten: number }
    /** Deferred tools a main-loop ToolSearch loaded, newest last (hooks/carried/carried.ts). */
    loadedTools: readonly string[]
    /** The plan a main-loop ExitPlanMode had approved, masked and bounded; null before one (hooks/carried/carried.ts CarriedPlan). */
    plan: { text: string; isCut: boolean; filePath?: string } | null
    /** The git worktree a main-loop EnterWorktree entered, masked; null outside one (hooks/carried/carried.ts CarriedWorktree). */
    worktree: { path: string; branch?: string } | null
    /** The work's facts and the rediscovery meter (hooks/facts/work.ts WorkRecord). */
    work: {
      facts: {
        changed: { path: string; count: number }[]
        read: string[]
        commands: { line: string; exitCode: number | null; shellId?: string }[]
      }
      meter:
        | { kind: 'none' }
        | {
            kind: 'watching'
            after: { kind: 'swapped' | 'resumed'; handoff: string } | { kind: 'compacted' }
            turnsLeft: number
            readBefore: string[]
            commandsBefore: string[]
            reReads: string[]
            repeatedCommands: string[]
            recalls: number
            handoffRead: boolean
            firstTurnEnded: boolean
          }
    }
    }
  }

  /** hooks/run/run.ts Run. */
  type CompactHandoffRun = {
    id: string
    mode: 'handoff' | 'plan'
    focus: string
    startedAtMs: number
    cwd: string
    cwdRealPath: string
    ignoresCase: boolean
    values: { run: string; created: string; chain: string; seq: number; parent: string }
    files: CompactHandoffRunFile[]
    apply: 'now' | 'review'
    trigger: 'command' | 'auto-handoff'
    held: string[]
    heldCommands: string[]
    repairs: number
    contextPercentBefore: number | null
    replacedBy?: 'digest' | 'summary'
    writtenFrom?: 'digest' | 'summary'
  }

  type CompactHandoffFile = { kind: 'handoff' | 'plan'; relPath: string }

  /** hooks/run/run.ts RunFile. */
  type CompactHandoffRunFile = CompactHandoffFile & { wrote: 'whole' | 'edited' }

  /** hooks/run/run.ts Chosen. */
  type CompactHandoffChosen = { handoff: CompactHandoffFile; plan?: CompactHandoffFile; continuePrompt: string; notices: string[] }

  /** hooks/run/run.ts Swap. */
  type CompactHandoffSwap = { handoff: string; plan?: string; continuePrompt: string; refusals: number; facts?: string }
}
