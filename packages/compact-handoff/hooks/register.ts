// Wiring only: each engine event to the step that handles it (the *-steps.ts
// files). `register` is one registration per event, longer than a function
// should be on purpose: the whole event map reads in one place.
import type { Register } from 'claude-code'
import { PLAN_COMMAND, HANDOFF_COMMAND, commandFailureTextOf } from './commands/command-intent.js'
import { GO_COMMAND } from './run/run.js'
import { optionsOf } from './options/options.js'
import { answerGo, goFailed, isRunOwnWrite, noteTurnStart, recordWrite } from './run/run-steps.js'
import { answerCommand, registerCommands } from './commands/command-steps.js'
import { endSession, mainTurnEnded, mainTurnFailed, noteSessionStart } from './turn-and-session/turn-steps.js'
import { takePrompt } from './prompts/prompt-steps.js'
import { offerResume } from './resume/resume-steps.js'
import { factsCaughtUp, mainLoopShellsOf } from './facts/work-steps.js'
import { recordsWritten } from './words/words-steps.js'
import { CHANGE_TOOLS } from './facts/facts.js'
import { recordLater } from './state/record-queue.js'
import { isModeAsk, ownWriteCandidateOf } from './run/own-write.js'
import { answerCompaction } from './compaction/compaction-steps.js'
import { askTurnEnded, startAskGate, verdictForToolCall } from './ask/ask-steps.js'
import { shellsAtTurnEnd } from './background/running-steps.js'
import { recordSkill } from './carried/skill-steps.js'
import { CARRIED_TOOLS, recordCarriedCall } from './carried/carried-steps.js'
import { stubRowLineFor } from './stub-row/stub-row-steps.js'
import { RECALL_TOOL } from './recall/recall.js'
import { answerRecall, listRecall, recallFailedOf } from './recall/recall-steps.js'

export const register: Register = (on, userConfig) => {
  const options = optionsOf(userConfig)
  startAskGate(options.askAfterCompaction)

  // One session.start hook: a second unmatched registration refuses the module.
  on('session.start', async ($, e, next) => {
    // The session's start waits on this hook: the flag, the commands and the
    // hooks beneath are independent engine hops, so they go out together.
    const [started] = await Promise.all([next(e), noteSessionStart($, e.isInteractive), registerCommands($)])
    // Not awaited here: the session's start waits on this hook, and the offer reads the store and a file.
    $.clock.after(0, () => {
      void offerResume($, e.isInteractive).catch(() => undefined)
      void listRecall($)
    })
    return started
  })

  // /clear starts a fresh conversation without a session.start: offer there too.
  on('session.end', async ($, e, next) => {
    // /clear starts the state over: the words typed before it land in the old one.
    await recordsWritten($)
    const isInteractive = await endSession($, e.reason)
    const ended = await next(e)
    if (e.reason === 'clear') $.clock.after(0, () => void offerResume($, isInteractive).catch(() => undefined))
    return ended
  }).catch(($, e, next) => next(e))

  // Fail closed with a message: nothing below answers our commands, and the
  // person should learn that the command broke, not see a bare engine notice.
  on('command.run', { command: [HANDOFF_COMMAND, PLAN_COMMAND] }, ($, e) => recordsWritten($).then(() => answerCommand($, e.command, e.args, e.origin.kind, options))).catch(
    ($, e, next) => ({ text: commandFailureTextOf(next.error.message) }),
  )
  // The hidden go-command, queued by the run itself; a failure drops the run
  // with a word instead of leaving it to the stuck rule.
  on('command.run', { command: GO_COMMAND }, ($, e) => recordsWritten($).then(() => answerGo($, e.args, e.origin))).catch(($, e, next) => goFailed($, e.args, next.error.message))

  on('prompt.submit', async ($, e, next) => {
    // The request waits on this hook: the words are held with the tool path's
    // records, which every hook that reads them flushes first (state/record-queue.ts).
    if ((await takePrompt($, e)) === 'hold') return { drop: 'held by compact-handoff until its swap is done' }
    return next(e)
  }).catch(($, e, next) => next(e)) // fail open: a broken hook must never eat the person's prompt

  // Only with askAfterCompaction on: with it off no tool call waits on this.
  // Outer to the recording below, so a refused call never reaches it.
  if (options.askAfterCompaction) {
    on('tool.call', async ($, e, next) => {
      // A subagent's calls are its own loop's; the question is the main loop's.
      if (e.agentId !== undefined) return next(e)
      const verdict = await verdictForToolCall($)
      return verdict.kind === 'run' ? next(e) : { deny: verdict.text }
    }).catch(($, e, next) => next(e)) // fail open: a broken gate must not take the tools away
  }

  // The model's next request waits on this hook, so only a Write or Edit is
  // heard here, and only a handoff's costs a `$` call: its ownership record
  // reads the file as the write left it, and a run's phase moves with it. The
  // facts are read from the conversation where they are read (facts/transcript-calls.ts).
  on('tool.call', { tool: [...CHANGE_TOOLS] }, async ($, e, next) => {
    const outcome = await next(e)
    await recordWrite($, e, outcome)
    return outcome
  }).catch(($, e, next) => next(e)) // fail open: a recording failure must never cost the person a tool call

  // What the engine's /compact would put back and a swap loses: the schemas a
  // ToolSearch loaded, the plan approved in plan mode, the worktree entered (carried/).
  on('tool.call', { tool: [...CARRIED_TOOLS] }, async ($, e, next) => {
    const outcome = await next(e)
    if (e.agentId === undefined) recordLater(() => recordCarriedCall($, e.tool, outcome))
    return outcome
  })

  // The recall tool, listed from the session's start (recall-steps.ts):
  // nothing beneath answers it, so a failure answers with what went wrong.
  // Only the model's own call in the main loop is answered (recall.ts).
  on('tool.call', { tool: RECALL_TOOL }, ($, e, next) => answerRecall($, e, { agentId: e.agentId, plugin: next.origin.plugin })).catch(($, e, next) => recallFailedOf(next.error.message))

  // The skill's write of its own file runs without a dialog (own-write.ts);
  // the session's verdict is asked first and only the mode's own ask is answered.
  on('tool.check', { tool: ['Write', 'Edit'] }, async ($, e, next) => {
    const path = ownWriteCandidateOf(e, next.origin.plugin)
    if (path === undefined) return next(e)
    const verdict = await next(e)
    if (!isModeAsk(verdict) || !(await isRunOwnWrite($, path))) return verdict
    return { decision: 'allow' as const, reason: 'compact-handoff: the handoff skill writing its own file during /compact-handoff' }
  }).catch(($, e, next) => next(e)) // fail open: on any error the session's own verdict stands

  on('turn.start', async ($, e, next) => {
    const started = await next(e)
    if (e.agentId === undefined) await noteTurnStart($, e)
    return started
  }).catch(($, e, next) => next(e)) // fail open: the turn runs whatever this hook does

  on('turn.complete', async ($, e, next) => {
    if (e.agentId === undefined) askTurnEnded()
    const completed = await next(e)
    if (e.agentId === undefined) {
      await recordsWritten($)
      await mainTurnEnded($, e.turnId, { reason: e.reason, answer: e.answer }, options)
    }
    return completed
  }).catch(($, e, next) => next(e)) // fail open: the turn's own result stands

  // A main-loop turn's end lists the background work still in flight: the one
  // place the engine says which shells run.
  on('classic.Stop', async ($, e, next) => {
    const stopped = await next(e)
    if (e.agent_id === undefined) await shellsAtTurnEnd($, e.background_tasks, (ids) => mainLoopShellsOf($, ids))
    return stopped
  }).catch(($, e, next) => next(e)) // fail open: the turn's own stop stands

  // A main-loop turn the API ended with an error: the one place the engine
  // says which (turn.complete's reason is 'error' for any); a request refused
  // as too long makes the next compactions write from a digest.
  on('classic.StopFailure', async ($, e, next) => {
    const stopped = await next(e)
    if (e.agent_id === undefined) await mainTurnFailed($, e.error, e.error_details)
    return stopped
  }).catch(($, e, next) => next(e)) // fail open: the turn's own failure stands

  // Each skill as the model reads it, so every stub carries it as the engine's
  // own compaction would (carried/skills.ts).
  on('skill.prompt', async ($, e, next) => {
    const prompt = await next(e)
    await recordSkill($, e, prompt.text)
    return prompt
  }).catch(($, e, next) => next(e)) // fail open: the skill reaches the model whatever this hook does

  // The stub's row as one line, whole under ctrl+o (stub-row/). A literal
  // matcher is decided by the engine itself, so a typed row (origin composer)
  // never costs a hop to the mods' worker; a row a compaction hook installed is
  // unclassified, as is a slash command's, which the text check then passes by
  // (seen live, 2.1.332).
  on('ui.render', { component: 'UserMessage', props: { origin: { kind: 'unclassified' } } }, async ($, e, next) => {
    if (e.props.isExpanded) return next(e)
    const line = await stubRowLineFor($, e.props.text, e.viewport?.columns)
    return next(line === undefined ? e : { ...e, props: { ...e.props, text: line } })
  }).catch(($, e, next) => next(e)) // fail open: a broken hook draws the row as it is

  // compact-handoff is outer to the answer mod: our own swap asked from a hook
  // and a compaction a fork answers never reach it; every other goes on with
  // our instructions or untouched.
  // The main conversation's calls are folded into the facts before it is replaced.
  on('session.compact', ($, e, next) => (e.agentId === undefined ? factsCaughtUp($, e.messages) : recordsWritten($)).then(() => answerCompaction($, e, next, next.origin.plugin, options))).catch(($, e, next) => next(e)) // fail open: a broken hook must never block a compaction
}
