/**
 * A mod's hooks as one module: `register.ts` and every module it imports, followed
 * from `register.ts` (not listed), joined in an order where each module comes after
 * the ones it imports. Claude Code 2.1.332 opens every module of a mod's import graph
 * on the thread that also draws the session before it starts the hooks worker, then
 * loads each module in the worker; one module is one open and one load. The bench
 * measures the mods loaded this way beside the mods as shipped (bench/start-stages.ts);
 * docs/measured.md says why they ship from their sources.
 *
 * Our own modules are plain ESM with no cycles (tests/contract/import-cycles.test.ts),
 * so joining is enough: the relative imports and re-exports go, each `export` but
 * `register`'s goes, the `'claude-code'` imports become one, what `register` does not
 * reach is left out, and a top-level name declared by two modules is renamed in the
 * later one, every use found through the type checker (so a local that shadows it is
 * left alone). The code itself is kept as written: the engine reads each
 * `$.noun.method(...)` call and each state access at its call site, and `$` may only
 * be passed to a function declared at the top of the module, which every function of
 * ours still is. Anything the join has no rule for (a default export, an import of
 * another package, a cycle) fails loudly.
 */
import { readFileSync } from 'node:fs'
import { dirname, join, posix, relative, resolve } from 'node:path'
import ts from 'typescript'

/** The generated module's first line: where it comes from. */
export const BUNDLE_HEAD = '// Generated from register.ts and the modules it imports (tests/harness/bundle.ts); never edited by hand.'

/** The generated module's file name, beside the mod's hooks.json. */
export const BUNDLE_FILE = 'bundle.ts'

const ENGINE_MODULE = 'claude-code'
const ENTRY = 'register.ts'

type Edit = { start: number; end: number; text: string }

/** The relative module `specifier` of `from` names (the `.js` the engine resolves to our `.ts`). */
function modulePathOf(from: string, specifier: string): string {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) {
    throw new Error(`bundle: ${from} imports "${specifier}": a hooks module imports its own files and '${ENGINE_MODULE}' only`)
  }
  return resolve(dirname(from), specifier.replace(/\.js$/, '.ts'))
}

function specifierOf(statement: ts.Statement): string | undefined {
  if ((ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier !== undefined) {
    return (statement.moduleSpecifier as ts.StringLiteral).text
  }
  return undefined
}

/** Every module of the graph, each after the modules it imports (depth-first, in import order). */
function graphOrderOf(entry: string): string[] {
  const order: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const visit = (file: string, chain: readonly string[]): void => {
    const seen = state.get(file)
    if (seen === 'done') return
    if (seen === 'open') throw new Error(`bundle: import cycle ${[...chain, file].map((f) => posix.basename(f)).join(' → ')}`)
    state.set(file, 'open')
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
    for (const statement of source.statements) {
      const specifier = specifierOf(statement)
      if (specifier !== undefined && specifier !== ENGINE_MODULE) visit(modulePathOf(file, specifier), [...chain, file])
    }
    state.set(file, 'done')
    order.push(file)
  }
  visit(entry, [])
  return order
}

/** The names a top-level statement declares in its module's scope. */
function declaredNamesOf(statement: ts.Statement): ts.Identifier[] {
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.map((d) => {
      if (!ts.isIdentifier(d.name)) throw new Error(`bundle: a top-level destructuring (${d.name.getText()}) has no rule`)
      return d.name
    })
  }
  if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) {
    if (statement.name === undefined) throw new Error('bundle: an unnamed top-level declaration has no rule')
    return [statement.name]
  }
  return []
}

function hasModifier(statement: ts.Statement, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((m) => m.kind === kind)
}

/** `text` from `start` through the line break that ends the span, so a removed statement leaves no blank line. */
function lineEndAfter(text: string, end: number): number {
  const lineBreak = text.indexOf('\n', end)
  return lineBreak >= 0 && text.slice(end, lineBreak).trim() === '' ? lineBreak + 1 : end
}

function applyEdits(text: string, edits: Edit[]): string {
  let out = text
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end)
  return out
}

/** The one `'claude-code'` import of the bundle: each binding once, type-only ones marked. */
type EngineBinding = { imported: string; isTypeOnly: boolean }

/**
 * The bundle of the mod whose hooks folder is `hooksDir`, as one module's text: the
 * first line is BUNDLE_HEAD, then the `'claude-code'` bindings it uses, then each
 * module in graph order under a line naming it.
 */
export function bundleOf(hooksDir: string): string {
  const entry = join(hooksDir, ENTRY)
  const files = graphOrderOf(entry)
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    noEmit: true,
    skipLibCheck: true,
    // Only our own modules' names are resolved: the engine's types and the standard library are not needed for that.
    noLib: true,
    types: [],
  })
  const checker = program.getTypeChecker()
  const sources = files.map((f) => {
    const source = program.getSourceFile(f)
    if (source === undefined) throw new Error(`bundle: ${f} did not parse`)
    return source
  })

  // The engine's bindings first: they are names in every module's scope once joined.
  const engine = new Map<string, EngineBinding>()
  for (const source of sources) {
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || specifierOf(statement) !== ENGINE_MODULE) continue
      const clause = statement.importClause
      const named = clause?.namedBindings
      if (clause === undefined || clause.name !== undefined || named === undefined || !ts.isNamedImports(named)) {
        throw new Error(`bundle: ${relative(hooksDir, source.fileName)}: only named imports from '${ENGINE_MODULE}' have a rule`)
      }
      for (const el of named.elements) {
        const binding = { imported: (el.propertyName ?? el.name).text, isTypeOnly: clause.isTypeOnly || el.isTypeOnly }
        const had = engine.get(el.name.text)
        if (had !== undefined && had.imported !== binding.imported) throw new Error(`bundle: "${el.name.text}" names two '${ENGINE_MODULE}' exports`)
        engine.set(el.name.text, { imported: binding.imported, isTypeOnly: (had?.isTypeOnly ?? true) && binding.isTypeOnly })
      }
    }
  }

  // Each top-level declaration's name in the bundle: its own, unless an earlier module
  // (or the engine's import) took it; `register` is the entry's.
  const taken = new Set<string>(engine.keys())
  const finalNames = new Map<ts.Symbol, string>()
  // A type alias spelled the same in several modules over the engine's types only
  // (`type $ = EngineInterface`) is one declaration once joined: the later copies go.
  const sharedTypes = new Map<string, { final: string; kept: ts.Statement }>()
  /** Each dropped copy of a shared type alias, and the one kept. */
  const duplicates = new Map<ts.Statement, ts.Statement>()
  const isOverEngineOnly = (statement: ts.TypeAliasDeclaration): boolean => {
    let isEngineOnly = true
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && node !== statement.name) {
        const declaration = checker.getSymbolAtLocation(node)?.declarations?.[0]
        const from = declaration !== undefined && ts.isImportSpecifier(declaration) ? declaration.parent.parent.parent.moduleSpecifier : undefined
        if (from === undefined || !ts.isStringLiteral(from) || from.text !== ENGINE_MODULE) isEngineOnly = false
      }
      node.forEachChild(visit)
    }
    visit(statement.type)
    return isEngineOnly && statement.typeParameters === undefined
  }
  // The engine's check of what `$` is handed to goes by name, not scope: a function
  // handed `$` must not be assigned anywhere in the file, a local of another module
  // included (seen on 2.1.332). So a top-level value named like another module's local is renamed.
  const localsOf = new Map<ts.SourceFile, Set<string>>()
  for (const source of sources) {
    const locals = new Set<string>()
    const visit = (node: ts.Node, depth: number): void => {
      if (depth > 0 && (ts.isVariableDeclaration(node) || ts.isParameter(node) || ts.isBindingElement(node) || ts.isFunctionDeclaration(node)) && node.name !== undefined && ts.isIdentifier(node.name)) {
        locals.add(node.name.text)
      }
      node.forEachChild((child) => visit(child, depth + (ts.isBlock(child) || ts.isFunctionLike(child) || ts.isCatchClause(child) ? 1 : 0)))
    }
    visit(source, 0)
    localsOf.set(source, locals)
  }
  const isLocalElsewhere = (name: string, source: ts.SourceFile): boolean => sources.some((other) => other !== source && localsOf.get(other)!.has(name))
  const ordered = [...sources].sort((a, b) => (a.fileName === entry ? -1 : b.fileName === entry ? 1 : 0))
  for (const source of ordered) {
    const stem = relative(hooksDir, source.fileName).replace(/\.ts$/, '').replace(/\W/g, '_')
    for (const statement of source.statements) {
      for (const name of declaredNamesOf(statement)) {
        const symbol = checker.getSymbolAtLocation(name)
        if (symbol === undefined) throw new Error(`bundle: no symbol for ${name.text} in ${stem}`)
        if (ts.isTypeAliasDeclaration(statement) && isOverEngineOnly(statement)) {
          const spelled = statement.getText(source).replace(/^export\s+/, '')
          const shared = sharedTypes.get(spelled)
          if (shared !== undefined) {
            finalNames.set(symbol, shared.final)
            duplicates.set(statement, shared.kept)
            continue
          }
        }
        let final = name.text
        const isValue = !ts.isTypeAliasDeclaration(statement) && !ts.isInterfaceDeclaration(statement)
        for (let n = 2; taken.has(final) || (isValue && final === name.text && isLocalElsewhere(final, source)); n++) final = `${name.text}__${stem}${n === 2 ? '' : n}`
        taken.add(final)
        finalNames.set(symbol, final)
        if (ts.isTypeAliasDeclaration(statement) && isOverEngineOnly(statement)) sharedTypes.set(statement.getText(source).replace(/^export\s+/, ''), { final, kept: statement })
      }
    }
  }

  const finalNameOf = (symbol: ts.Symbol | undefined): string | undefined => {
    if (symbol === undefined) return undefined
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
    return finalNames.get(target)
  }

  // Only what `register` reaches is kept: an export our tests or the other side of the
  // protocol use is no code on the engine's start path.
  const targetOf = (symbol: ts.Symbol | undefined): ts.Symbol | undefined =>
    symbol === undefined ? undefined : symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
  const declaring = new Map<ts.Symbol, ts.Statement>()
  const roots: ts.Statement[] = []
  for (const source of sources) {
    for (const statement of source.statements) {
      if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) continue
      const names = declaredNamesOf(statement)
      if (names.length === 0 || (source.fileName === entry && names.some((n) => n.text === 'register'))) roots.push(statement)
      for (const name of names) declaring.set(checker.getSymbolAtLocation(name)!, duplicates.get(statement) ?? statement)
    }
  }
  const reached = new Set<ts.Statement>()
  /** The engine's bindings the kept code names. */
  const engineUsed = new Set<string>()
  const queue = [...roots]
  for (let statement = queue.pop(); statement !== undefined; statement = queue.pop()) {
    if (reached.has(statement)) continue
    reached.add(statement)
    const visit = (node: ts.Node): void => {
      const symbol = ts.isShorthandPropertyAssignment(node) ? checker.getShorthandAssignmentValueSymbol(node) : ts.isIdentifier(node) ? checker.getSymbolAtLocation(node) : undefined
      const declaration = symbol?.declarations?.[0]
      if (symbol !== undefined && declaration !== undefined && ts.isImportSpecifier(declaration)) {
        const from = declaration.parent.parent.parent.moduleSpecifier
        if (ts.isStringLiteral(from) && from.text === ENGINE_MODULE) engineUsed.add(declaration.name.text)
      }
      const target = targetOf(symbol)
      const declared = target === undefined ? undefined : declaring.get(target)
      if (declared !== undefined && !reached.has(declared)) queue.push(declared)
      node.forEachChild(visit)
    }
    visit(statement)
  }

  const parts: string[] = []
  for (const source of sources) {
    const text = source.getFullText()
    const edits: Edit[] = []
    const isEntry = source.fileName === entry
    const dropped = new Set<ts.Node>()
    for (const statement of source.statements) {
      if (duplicates.has(statement) || (!reached.has(statement) && !ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement))) {
        dropped.add(statement)
        edits.push({ start: statement.getStart(source), end: lineEndAfter(text, statement.end), text: '' })
        continue
      }
      if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) {
        if (ts.isExportDeclaration(statement) && statement.moduleSpecifier === undefined && isEntry) {
          throw new Error('bundle: register.ts exports a list; only `export const register` has a rule')
        }
        dropped.add(statement)
        edits.push({ start: statement.getStart(source), end: lineEndAfter(text, statement.end), text: '' })
        continue
      }
      if (ts.isExportAssignment(statement) || hasModifier(statement, ts.SyntaxKind.DefaultKeyword)) {
        throw new Error(`bundle: ${relative(hooksDir, source.fileName)} has a default export, which has no rule`)
      }
      const keepsExport = isEntry && declaredNamesOf(statement).some((n) => n.text === 'register')
      if (!keepsExport && ts.canHaveModifiers(statement)) {
        for (const modifier of ts.getModifiers(statement) ?? []) {
          if (modifier.kind !== ts.SyntaxKind.ExportKeyword) continue
          const next = modifier.end + (text.slice(modifier.end).length - text.slice(modifier.end).trimStart().length)
          edits.push({ start: modifier.getStart(source), end: next, text: '' })
        }
      }
    }
    const visit = (node: ts.Node): void => {
      if (dropped.has(node)) return
      if (ts.isShorthandPropertyAssignment(node)) {
        const final = finalNameOf(checker.getShorthandAssignmentValueSymbol(node))
        if (final !== undefined && final !== node.name.text) edits.push({ start: node.name.getStart(source), end: node.name.end, text: `${node.name.text}: ${final}` })
        node.objectAssignmentInitializer?.forEachChild(visit)
        return
      }
      if (ts.isIdentifier(node)) {
        const final = finalNameOf(checker.getSymbolAtLocation(node))
        if (final !== undefined && final !== node.text) edits.push({ start: node.getStart(source), end: node.end, text: final })
        return
      }
      node.forEachChild(visit)
    }
    source.forEachChild(visit)
    const body = applyEdits(text, edits).trim()
    if (source.statements.every((statement) => dropped.has(statement))) continue
    parts.push(`// ── ${relative(hooksDir, source.fileName).split('\\').join('/')}\n${body}\n`)
  }

  const bindings = [...engineUsed]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((local) => {
      const b = engine.get(local)!
      return `${b.isTypeOnly ? 'type ' : ''}${b.imported === local ? local : `${b.imported} as ${local}`}`
    })
  const head = bindings.length === 0 ? '' : `import { ${bindings.join(', ')} } from '${ENGINE_MODULE}'\n`
  return `${BUNDLE_HEAD}\n${head}\n${parts.join('\n')}`
}

/** The mods the bench also loads as one generated module, as folders of the repository. */
export const BUNDLED_MODS = ['packages/compact-handoff', 'packages/compact-handoff-answer'] as const
