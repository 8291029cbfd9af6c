/**
 * `node dist/tests/fork-eval/recall-cli.js <run> <arm> <query…>`: recall for a stand-in quiz model
 * of a recall arm (quiz/<variant>-recall.md names the command). It answers as the tool would,
 * with the product's own search over runs/<run>/transcript.jsonl (method.ts recallOf), and logs
 * each call and its answer in runs/<run>/recall/<arm>.jsonl, so a run's calls can be counted and
 * its answers checked against the code (fork-eval.test.ts). `pnpm build` first.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from '../harness/repo-root.js'
import { ARMS, recallOf, type RecallCall } from './method.js'

const [run = '', arm = '', ...words] = process.argv.slice(2)
const runFolder = join(repoRoot(), 'tests', 'fork-eval', 'runs', run)
const transcript = join(runFolder, 'transcript.jsonl')
const isRecallArm = (ARMS as readonly string[]).includes(arm) && arm.endsWith('-recall')
if (!/^\d+$/.test(run) || !isRecallArm || !existsSync(transcript)) {
  console.error(`usage: node dist/tests/fork-eval/recall-cli.js <run> <arm> <query…>, with <arm> one of ${ARMS.filter((a) => a.endsWith('-recall')).join(', ')}, after pnpm fork-eval stub <run> wrote runs/<run>/transcript.jsonl`)
  process.exit(2)
}
const query = words.join(' ')
const answer = recallOf(readFileSync(transcript, 'utf8'), query)
mkdirSync(join(runFolder, 'recall'), { recursive: true })
const call: RecallCall = { query, answer }
appendFileSync(join(runFolder, 'recall', `${arm}.jsonl`), `${JSON.stringify(call)}\n`)
console.log(answer)
