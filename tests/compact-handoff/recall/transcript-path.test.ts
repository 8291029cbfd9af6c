// Which file recall may read: this session's own transcript in the engine's
// projects folder for this project, named as the engine names it (seen live:
// `<home>/.claude/projects/-tmp-…-proj/<session id>.jsonl`), never another.
import { describe, expect, test } from 'vitest'
import { projectFolderNameOf, transcriptPartsOf, transcriptRefusalOf } from '../../../packages/compact-handoff/hooks/recall/transcript-reading.js'

const OWN = { transcriptPath: '/home/me/.claude/projects/-srv-app/0f3c.jsonl', sessionId: '0f3c', folders: ['/srv/app'] }

describe('transcriptRefusalOf', () => {
  test("takes the session's own transcript, on POSIX and on Windows", () => {
    expect(transcriptRefusalOf(OWN)).toBeUndefined()
    expect(transcriptRefusalOf({ transcriptPath: 'C:\\Users\\me\\.claude\\projects\\C--app\\0f3c.jsonl', sessionId: '0f3c', folders: ['C:\\app'] })).toBeUndefined()
    expect(projectFolderNameOf('/srv/e2e-runs/recall_1/proj')).toBe('-srv-e2e-runs-recall-1-proj')
  })

  test("refuses another session's, another project's, one outside a projects folder, and none", () => {
    for (const transcriptPath of ['/home/me/.claude/projects/-srv-app/other.jsonl', '/home/me/.claude/projects/-srv-other/0f3c.jsonl', '/srv/app/0f3c.jsonl', '/home/me/.claude/elsewhere/-srv-app/0f3c.jsonl', '../../../etc/-srv-app/0f3c.jsonl']) {
      expect(transcriptRefusalOf({ ...OWN, transcriptPath }), transcriptPath).toBe("the file the engine names is not this session's transcript in its projects folder for this project")
    }
    expect(transcriptRefusalOf({ ...OWN, transcriptPath: '' })).toBe('the engine keeps no transcript for this session on this machine')
  })

  test('takes a long folder name cut at 200 characters and given a hash, as the engine names it', () => {
    const cwd = `/srv/${'a'.repeat(300)}`
    const folder = `${projectFolderNameOf(cwd).slice(0, 200)}-1x2y3z`
    expect(transcriptRefusalOf({ transcriptPath: `/h/.claude/projects/${folder}/s.jsonl`, sessionId: 's', folders: [cwd] })).toBeUndefined()
  })

  test('splits at the last separator of either kind', () => {
    expect(transcriptPartsOf('C:\\a\\b/c.jsonl')).toEqual({ folder: 'C:\\a\\b', name: 'c.jsonl' })
  })
})
