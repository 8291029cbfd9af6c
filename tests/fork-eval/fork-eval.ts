/**
 * `pnpm fork-eval <step>`: the fork prompt's measurement, step by step (README.md beside this
 * file). Each step reads what the one before it, or a stand-in model, left in this folder:
 *
 *   prepare   inputs/writer-<variant>.md: the conversation the fork sees and the prompt, for a
 *             stand-in writer, one per prompt version (prompts/<variant>.txt)
 * The last three steps take a run number (default 1) and work in runs/<n>/:
 *
 *   stub      replies/<variant>.md (the writer's reply) → stubs/<variant>.md by the mod's own
 *             code, and two quizzes for fresh models: quiz/<variant>.md (that stub alone and the
 *             questions) and quiz/<variant>-recall.md (the stub, the recall command, the
 *             questions); transcript.jsonl, the session's transcript recall searches
 *   grade     answers/<arm>.md (the quiz model's answers) → results.json and results.md
 *
 * A recall quiz model runs recall-cli.js, which answers over the run's transcript.jsonl.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from '../harness/repo-root.js'
import { MAX_REDACT_CHARS } from '../../packages/compact-handoff/hooks/text/text-clip.js'
import { ARMS, VARIANTS, builtOf, quizInputOf, recallCallsOf, recallQuizInputOf, resultsJsonOf, resultsOf, resultsTableOf, transcriptJsonlOf, writerInputOf, type Arm } from './method.js'

const HERE = join(repoRoot(), 'tests', 'fork-eval')
const at = (...parts: string[]) => join(HERE, ...parts)
/** One measurement's replies, stubs, quizzes, answers and results: `runs/<n>/`, n from the command line. */
const RUN = process.argv[3] ?? '1'
const runAt = (...parts: string[]) => at('runs', RUN, ...parts)

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, text)
  console.log(`wrote ${path.slice(HERE.length + 1)}`)
}

function prepare(): void {
  for (const variant of VARIANTS) write(at('inputs', `writer-${variant}.md`), writerInputOf(readFileSync(at('prompts', `${variant}.txt`), 'utf8')))
}

function stub(): void {
  write(runAt('transcript.jsonl'), transcriptJsonlOf())
  for (const variant of VARIANTS) {
    const reply = runAt('replies', `${variant}.md`)
    if (!existsSync(reply)) {
      console.log(`${variant}: no replies/${variant}.md yet`)
      continue
    }
    const built = builtOf(readFileSync(reply, 'utf8'))
    const within = built.replyChars <= MAX_REDACT_CHARS ? 'within' : 'over'
    console.log(`${variant}: the reply's handoff is ${built.replyChars} characters, ${within} MAX_REDACT_CHARS (${MAX_REDACT_CHARS})`)
    if (built.kind === 'refused') {
      console.log(`${variant}: the mod would send it back: ${built.problems.join('; ')}`)
      continue
    }
    console.log(`${variant}: passed the format check first time; saved as ${built.fileName}`)
    write(runAt('stubs', `${variant}.md`), built.stub)
    write(runAt('quiz', `${variant}.md`), quizInputOf(built.stub))
    write(runAt('quiz', `${variant}-recall.md`), recallQuizInputOf(built.stub, RUN, `${variant}-recall`))
  }
}

function grade(): void {
  const answers: Partial<Record<Arm, string>> = {}
  const calls: Partial<Record<Arm, number>> = {}
  for (const arm of ARMS) {
    const path = runAt('answers', `${arm}.md`)
    if (existsSync(path)) answers[arm] = readFileSync(path, 'utf8')
    const log = runAt('recall', `${arm}.jsonl`)
    if (existsSync(path) && arm.endsWith('-recall')) calls[arm] = existsSync(log) ? recallCallsOf(readFileSync(log, 'utf8')).length : 0
  }
  const results = resultsOf(answers)
  console.log(`graded ${Object.keys(results).join(', ') || 'nothing: no answers/<arm>.md yet'}`)
  if (Object.keys(results).length === 0) return
  write(runAt('results.json'), resultsJsonOf(results))
  write(runAt('results.md'), resultsTableOf(results, calls))
}

const steps: Record<string, () => void> = { prepare, stub, grade }
const step = steps[process.argv[2] ?? '']
if (step === undefined) {
  console.error('usage: pnpm fork-eval prepare | stub <run> | grade <run>')
  process.exit(2)
}
step()
