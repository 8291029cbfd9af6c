/**
 * The relative links of Markdown files, and which of them lead nowhere: a file
 * that is not in the repository, or a `#anchor` no heading of the target makes.
 * Anchors follow GitHub's rule for a heading's id, since GitHub is where the
 * files are read: the heading's text lowercased, every character but letters,
 * digits, marks, `-`, `_` and spaces dropped, spaces made `-`, and a repeated
 * id given `-1`, `-2`, … in order.
 */
import { posix } from 'node:path'
import { remark } from 'remark'
import remarkFrontmatter from 'remark-frontmatter'

/** A Markdown file by its repository path (`/`-separated) and its text. */
export type MarkdownFile = { path: string; text: string }

/** A link that leads nowhere, where it is written and why. */
export type BrokenLink = { where: string; url: string; why: string }

type MdNode = { type: string; url?: string; value?: string; children?: MdNode[]; position?: { start: { line: number } } }

const processor = remark().use(remarkFrontmatter, ['yaml', 'toml'])

const SCHEME_RE = /^[a-z][a-z0-9+.-]*:/i

function treeOf(text: string): MdNode {
  return processor.parse(text) as MdNode
}

/** Every node of the tree, depth first; an explicit stack, so a deep tree cannot overflow. */
function nodesOf(root: MdNode): MdNode[] {
  const found: MdNode[] = []
  const stack = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    found.push(node)
    for (let i = (node.children ?? []).length - 1; i >= 0; i--) stack.push(node.children![i]!)
  }
  return found
}

/** The text a heading shows: its text and code spans, inside emphasis and links too. */
function shownTextOf(node: MdNode): string {
  return nodesOf(node)
    .filter((n) => n.type === 'text' || n.type === 'inlineCode')
    .map((n) => n.value ?? '')
    .join('')
}

/** GitHub's id for a heading's text, before a repeat is numbered. */
export function slugOf(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-')
}

/** The anchors the headings of `text` make, repeats numbered as GitHub numbers them. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const node of nodesOf(treeOf(text))) {
    if (node.type !== 'heading') continue
    const slug = slugOf(shownTextOf(node))
    const times = seen.get(slug) ?? 0
    seen.set(slug, times + 1)
    anchors.add(times === 0 ? slug : `${slug}-${times}`)
  }
  return anchors
}

/** Every link, image and link definition of `text` that stays in the repository, with its line. */
export function relativeLinksOf(text: string): { url: string; line: number }[] {
  return nodesOf(treeOf(text))
    .filter((n) => (n.type === 'link' || n.type === 'image' || n.type === 'definition') && n.url !== undefined && n.url !== '')
    .filter((n) => !SCHEME_RE.test(n.url!) && !n.url!.startsWith('//'))
    .map((n) => ({ url: n.url!, line: n.position?.start.line ?? 0 }))
}

/** Decodes a link's path as a browser would; a malformed escape is kept as written. */
function decodedPathOf(path: string): string {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}

/**
 * The links of `files` that lead nowhere. `exists` says whether a repository
 * path (`/`-separated, no leading `./`) is a file or folder of the repository;
 * `textOf` gives a Markdown target's text, for its anchors.
 */
export function brokenLinksOf(files: MarkdownFile[], exists: (path: string) => boolean, textOf: (path: string) => string): BrokenLink[] {
  const anchorsByPath = new Map<string, Set<string>>()
  const anchorsAt = (path: string): Set<string> => {
    let anchors = anchorsByPath.get(path)
    if (anchors === undefined) anchorsByPath.set(path, (anchors = anchorsOf(textOf(path))))
    return anchors
  }
  const broken: BrokenLink[] = []
  for (const file of files) {
    for (const { url, line } of relativeLinksOf(file.text)) {
      const where = `${file.path}:${line}`
      const hash = url.indexOf('#')
      const pathPart = decodedPathOf(hash < 0 ? url : url.slice(0, hash))
      const anchor = hash < 0 ? undefined : decodedPathOf(url.slice(hash + 1))
      const target = pathPart === '' ? file.path : posix.normalize(pathPart.startsWith('/') ? pathPart.slice(1) : posix.join(posix.dirname(file.path), pathPart)).replace(/\/$/, '')
      if (target === '..' || target.startsWith('../')) {
        broken.push({ where, url, why: 'leads out of the repository' })
        continue
      }
      if (!exists(target)) {
        broken.push({ where, url, why: `no file or folder ${target}` })
        continue
      }
      if (anchor !== undefined && anchor !== '' && target.endsWith('.md') && !anchorsAt(target).has(anchor)) {
        broken.push({ where, url, why: `no heading of ${target} makes #${anchor}` })
      }
    }
  }
  return broken
}
