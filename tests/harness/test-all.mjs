// `pnpm test`: every suite, in two stages, each stage's parts side by side. Every part is a
// child whose output is kept and printed whole under its label when it ends, so two parts'
// lines never mix. The stages are cut by what each part costs on a 2-core machine (measured
// in docs/measured.md, "The test suite's time", with the orders tried): the kit suite keeps
// both cores busy, and its host spends about a third more CPU when another suite shares
// them, so it runs with only the small parts beside it (handoff-check's build, which the
// real-session suite runs built, and the answer mod's kit). The real-session suite runs its
// files one at a time (its tmux sessions' start times swing by seconds when they share the
// cores) and then keeps about 1.3 cores busy; the unit suite (vitest's one worker), the
// type-check and the validation share the rest beside it. Ends with each part's time; exits
// 1 naming each part that failed. Plain JavaScript, so that it needs no build of its own.
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const bin = (name) => join('node_modules', '.bin', name)

const STAGES = [
  [
    { label: 'kit compact-handoff', command: [bin('claude'), 'plugin', 'test', 'packages/compact-handoff'] },
    { label: 'kit compact-handoff-answer', command: [bin('claude'), 'plugin', 'test', 'packages/compact-handoff-answer'] },
    { label: 'build handoff-check', command: [bin('tsc'), '-p', 'packages/handoff-tools/tsconfig.build.json'] },
  ],
  [
    { label: 'e2e', command: [bin('vitest'), 'run', '--config', 'tests/e2e/vitest.config.ts'] },
    { label: 'unit', command: [bin('vitest'), 'run'] },
    { label: 'typecheck', command: ['pnpm', 'typecheck'] },
    { label: 'validate', command: ['pnpm', 'validate'] },
  ],
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
