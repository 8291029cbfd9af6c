// compact-handoff as this mod's kit tests need it: the owner of the state the
// mod reads, and the one plugin whose swap it answers. Not a test file:
// `claude plugin test` runs every *.test.ts it finds. The stand-in is
// self-contained, as the kit requires of an inline plugin; it is named
// compact-handoff, so the host names it as `next.origin` of its own calls.
import { expect, mock, type Engine } from 'claude-code/testing'
import type { On, PluginState } from 'claude-code'

export type PartnerState = Partial<PluginState['compact-handoff']>

/** compact-handoff's run with its compaction in flight: the one moment its marked compaction is answered. */
export const COMPACTING: PartnerState['run'] = { kind: 'swapping', isCompacting: true }

/** Writes compact-handoff's state (`/partner-state <json>`: only the owner may),
 * and raises a compaction as compact-handoff's swap does (`/partner-swap
 * <instructions>`: on a timer, since the call is refused inside command.run),
 * toasting its outcome as JSON. Any other plugin doing the same is `sender`. */
export const HANDOFF_STAND_IN = {
  name: 'compact-handoff',
  register(on: On) {
    on('command.run', { command: 'partner-state' }, async ($, e) => {
      const state = JSON.parse(e.args) as Partial<PluginState['compact-handoff']>
      if (state.run !== undefined) await $.state.set({ plugin: 'compact-handoff', key: 'run' } as const, state.run)
      return { text: 'written' }
    })
    on('command.run', { command: 'partner-swap' }, ($, e) => {
      $.clock.after(0, async () => {
        try {
          $.ui.toast(JSON.stringify(await $.session.compact({ instructions: e.args })))
        } catch (error) {
          $.ui.toast(`refused: ${String(error)}`)
        }
      })
      return { text: 'scheduled' }
    })
  },
}

/** Another plugin that raises a compaction with instructions of its choosing
 * (`/sender-compact <instructions>`), toasting its outcome as JSON. */
export const OTHER_SENDER = {
  name: 'sender',
  register(on: On) {
    on('command.run', { command: 'sender-compact' }, ($, e) => {
      $.clock.after(0, async () => {
        try {
          $.ui.toast(JSON.stringify(await $.session.compact({ instructions: e.args })))
        } catch (error) {
          $.ui.toast(`refused: ${String(error)}`)
        }
      })
      return { text: 'scheduled' }
    })
  },
}

function typed($: Engine, command: string, args: string) {
  return $.command.run({ command, args, origin: { kind: 'composer' }, presentation: { isFullscreen: false, columns: 80 } })
}

export async function partnerWrites($: Engine, state: PartnerState): Promise<void> {
  expect((await typed($, 'partner-state', JSON.stringify(state))).text, 'the stand-in must have written the state').toBe('written')
}

/** What a timer-raised compaction needs beneath the plugins: the clock, and
 * the toasts its outcome is reported in. Register before the first `$` call. */
export function timerCompactions(on: On) {
  const clock = mock.clock(on)
  const toasts: string[] = []
  on('ui.toast', (_$, e) => {
    toasts.push(e.text)
    return { value: undefined }
  })
  /** Raises a compaction from `plugin`'s timer with `instructions`; returns its outcome as the plugin saw it. */
  async function raisedBy($: Engine, plugin: 'compact-handoff' | 'sender', instructions: string): Promise<unknown> {
    const before = toasts.length
    await typed($, plugin === 'compact-handoff' ? 'partner-swap' : 'sender-compact', instructions)
    await clock.settle()
    expect(toasts.length, `${plugin}'s compaction must have settled`).toBe(before + 1)
    const outcome = toasts.at(-1)!
    return outcome.startsWith('refused: ') ? outcome : JSON.parse(outcome)
  }
  return { raisedBy }
}
