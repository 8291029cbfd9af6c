// The work's facts read from the conversation: each answered call once,
// in order, from where the last catch-up stopped; a call in flight waits for
// its answer; a conversation replaced since is read whole.
import { describe, expect, test } from 'vitest'
import { callsAfter, type ConversationMessage } from '../../../packages/compact-handoff/hooks/facts/transcript-calls.js'
import { cpuMsOf } from '../../support/cpu-time.js'

type Use = NonNullable<ConversationMessage['toolUses']>[number]

const read = (id: string, path: string, outcome: Partial<Use> = { text: 'contents' }): Use => ({ tool_use_id: id, tool: 'Read', input: { file_path: path }, ...outcome })
const bash = (id: string, command: string, outcome: Partial<Use> = { text: 'ok' }): Use => ({ tool_use_id: id, tool: 'Bash', input: { command }, ...outcome })
const asked = (...toolUses: Use[]): ConversationMessage => ({ role: 'assistant', toolUses })
const typed: ConversationMessage = { role: 'user' }

describe('callsAfter', () => {
  test('reads the answered changes, Reads and commands in order, with how each command ended', () => {
    const messages = [
      typed,
      asked(read('r1', '/srv/app/a.ts'), bash('b1', 'pnpm test', { text: 'Exit code 2\nnpm ERR!', isError: true })),
      asked(bash('b2', 'pnpm dev', { text: 'Command running in background with ID: sh7', result: { stdout: '', backgroundTaskId: 'sh7' } }), { tool_use_id: 'w1', tool: 'Write', input: { file_path: '/srv/app/b.ts' }, text: 'ok' }),
      asked({ tool_use_id: 'e1', tool: 'Edit', input: { file_path: '/srv/app/b.ts' }, text: 'ok' }),
      asked(bash('b3', 'make', { text: 'killed', isError: true })),
    ]
    expect(callsAfter(messages, undefined)).toEqual({
      records: [
        { kind: 'read', text: '/srv/app/a.ts' },
        { kind: 'command', text: 'pnpm test', exitCode: 2 },
        { kind: 'command', text: 'pnpm dev', exitCode: 0, shellId: 'sh7' },
        { kind: 'change', text: '/srv/app/b.ts' },
        { kind: 'change', text: '/srv/app/b.ts' },
        { kind: 'command', text: 'make', exitCode: null },
      ],
      through: 'b3',
    })
  })

  test('a failed or refused Read or change names nothing, and a call of another tool moves the cursor alone', () => {
    const messages = [
      asked(read('r1', '/srv/app/gone.ts', { text: 'File does not exist.', isError: true }), { tool_use_id: 'w1', tool: 'Write', input: { file_path: '/srv/app/x.ts' }, text: 'Permission denied', isError: true }),
      asked({ tool_use_id: 'g1', tool: 'Grep', input: { pattern: 'x' }, text: 'none' }),
    ]
    expect(callsAfter(messages, undefined)).toEqual({ records: [], through: 'g1' })
  })

  test('reads an answer from the next user message when the tool use holds none', () => {
    const messages: ConversationMessage[] = [asked(bash('b1', 'pnpm lint', {})), { role: 'user', toolResults: [{ tool_use_id: 'b1', text: 'Exit code 1\nlint errors', isError: true }] }]
    expect(callsAfter(messages, undefined).records).toEqual([{ kind: 'command', text: 'pnpm lint', exitCode: 1 }])
  })

  test('goes on from the call the last catch-up stopped at, so none is read twice', () => {
    const messages = [asked(read('r1', '/a')), asked(bash('b1', 'ls'))]
    const first = callsAfter(messages.slice(0, 1), undefined)
    expect(first.through).toBe('r1')
    expect(callsAfter(messages, first.through)).toEqual({ records: [{ kind: 'command', text: 'ls', exitCode: 0 }], through: 'b1' })
    expect(callsAfter(messages, 'b1'), 'nothing new: the cursor stays').toEqual({ records: [], through: 'b1' })
  })

  test('a conversation replaced since holds none of its calls: it is read whole', () => {
    expect(callsAfter([asked(read('r9', '/after'))], 'b1')).toEqual({ records: [{ kind: 'read', text: '/after' }], through: 'r9' })
  })

  test('stops at a call of the newest message still in flight; an older call never answered is passed over', () => {
    const messages = [asked(read('r1', '/old', {})), asked(read('r2', '/a')), asked(read('r3', '/b'), bash('b1', 'sleep 9', {}), read('r4', '/c'))]
    const now = callsAfter(messages, undefined)
    expect(now).toEqual({ records: [{ kind: 'read', text: '/a' }, { kind: 'read', text: '/b' }], through: 'r3' })
    const answered = [...messages.slice(0, 2), asked(read('r3', '/b'), bash('b1', 'sleep 9'), read('r4', '/c'))]
    expect(callsAfter(answered, now.through).records, 'the rest once answered').toEqual([
      { kind: 'command', text: 'sleep 9', exitCode: 0 },
      { kind: 'read', text: '/c' },
    ])
  })

  test('is linear: 20,000 calls and a cursor at the end are read in well under a second', () => {
    const messages = Array.from({ length: 20_000 }, (_, i) => asked(bash(`b${i}`, `echo ${i}`)))
    const ms = cpuMsOf(() => callsAfter(messages, 'b19998'))
    expect(callsAfter(messages, 'b19998').records).toEqual([{ kind: 'command', text: 'echo 19999', exitCode: 0 }])
    expect(ms).toBeLessThan(1_000)
  })
})
