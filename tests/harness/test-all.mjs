// `pnpm test`: every suite, the independent ones side by side. Stage one runs at once the
// parts that use no screen: handoff-check's build (the real-session suite runs it built; the
// harness's own build is for demo, bench, kit and gen, which build it themselves), the type-check, the validation, both kit suites and the unit suite. Each is a child whose
// output is kept and printed whole under its label when it ends, so two parts' lines never
// mix. Stage two is the real-session suite alone: its tmux sessions' start times swing by
// seconds when they share the cores. Ends with each part's time; exits 1 naming each part
// that failed. Plain JavaScript, so that it needs no build of its own before it runs.
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const bin = (name) => join('node_modules', '.bin', name)

const STAGES = [
  [
    { label: 'build handoff-check', command: [bin('tsc'), '-p', 'packages/handoff-tools/tsconfig.build.json'] },
    { label: 'typecheck', command: ['pnpm', 'typecheck'] },
    { label: 'validate', command: ['pnpm', 'validate'] },
    { label: 'kit compact-handoff', command: [bin('claude'), 'plugin', 'test', 'packages/compact-handoff'] },
    { label: 'kit compact-handoff-answer', command: [bin('claude'), 'plugin', 'test', 'packages/compact-handoff-answer'] },
    { label: 'unit', command: [bin('vitest'), 'run'] },
  ],
  [{ label: 'e2e', command: [bin('vitest'), 'run', '--config', 'tests/e2e/vitest.config.ts'] }],
]

/** "2m31s", "48s". */
function tookOf(ms) {
  const s = Math.round(ms / 1000)
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`
}

const lineOf = ({ part, isPassing, ms }) => `${part.label}: ${isPassing ? 'passed' : 'FAILED'} in ${tookOf(ms)}`

/** Runs one part with its output kept, then prints it under the part's label. */
function runPart(part) {
  const started = Date.now()
  return new Promise((done) => {
    const child = spawn(part.command[0], part.command.slice(1), { cwd: ROOT, env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' } })
    const chunks = []
    child.stdout.on('data', (c) => chunks.push(c))
    child.stderr.on('data', (c) => chunks.push(c))
    let isDone = false
    const finish = (isPassing, note = '') => {
      if (isDone) return
      isDone = true
      const outcome = { part, isPassing, ms: Date.now() - started }
      process.stdout.write(`\n━━ ${lineOf(outcome)} ━━\n${Buffer.concat(chunks).toString('utf8')}${note}`)
      done(outcome)
    }
    child.on('error', (error) => finish(false, `test: could not start ${part.command.join(' ')}: ${error.message}\n`))
    child.on('close', (code) => finish(code === 0))
  })
}

const started = Date.now()
const outcomes = []
for (const stage of STAGES) {
  console.log(`test: ${stage.map((p) => p.label).join(', ')}${stage.length > 1 ? ', side by side' : ''}`)
  outcomes.push(...(await Promise.all(stage.map(runPart))))
}
console.log(`\n${outcomes.map(lineOf).join('\n')}\ntest: all parts in ${tookOf(Date.now() - started)}`)
const failed = outcomes.filter((o) => !o.isPassing)
if (failed.length > 0) {
  console.log(`test: failed: ${failed.map((o) => `${o.part.label} (${o.part.command.join(' ')})`).join('; ')}`)
  process.exit(1)
}
