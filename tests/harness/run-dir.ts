/**
 * One folder per run: the project the session works in, a seeded HOME, its own TMPDIR and
 * XDG_RUNTIME_DIR, and the staged plugins (measured on Claude Code 2.1.332).
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { claudeVersion } from './claude-cli.js'
import { API_KEY } from './environment.js'

export interface RunDir {
  dir: string
  proj: string
  home: string
  tmp: string
  xdg: string
  plugins: string
}

/**
 * Makes `<root>/<name>-<n>` (first free n) with a seeded HOME. Each seeded key answers a
 * screen that otherwise blocks startup (onboarding needs the network; custom API key,
 * bypass-permissions warning and workspace-trust dialogs default to "no"). The default root
 * is outside any git work tree: a session inside one reads that tree's status into its
 * system prompt, so runs under this repository would see the project's own git state.
 */
export function createRunDir(name: string, root = join(tmpdir(), 'compact-handoff-e2e')): RunDir {
  const dir = freshDir(root, name)
  const run: RunDir = {
    dir,
    proj: join(dir, 'proj'),
    home: join(dir, 'home'),
    tmp: join(dir, 'tmp'),
    xdg: join(dir, 'xdg'),
    plugins: join(dir, 'plugins'),
  }
  for (const d of [run.proj, run.home, run.tmp, run.xdg, run.plugins, join(run.home, '.claude')]) mkdirSync(d, { recursive: true })
  seedHome(run)
  return run
}

/** `<root>/<name>-<n>` for the first n nobody has made yet (made atomically, so parallel runs never share one). */
function freshDir(root: string, name: string): string {
  mkdirSync(root, { recursive: true })
  for (let n = 1; ; n++) {
    const candidate = join(root, `${name}-${n}`)
    try {
      mkdirSync(candidate)
      return realpathSync(candidate)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
  }
}

function seedHome(run: RunDir): void {
  const claudeJson = {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: claudeVersion(),
    theme: 'dark',
    numStartups: 1,
    // The key sessionEnv gives every claude process of the run.
    customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
    bypassPermissionsModeAccepted: true,
    // The trust lookup walks up from the cwd, so trusting the run dir covers proj/.
    projects: { [run.dir]: { hasTrustDialogAccepted: true, allowedTools: [], hasCompletedProjectOnboarding: true } },
  }
  writeFileSync(join(run.home, '.claude.json'), JSON.stringify(claudeJson, null, 2))
  writeFileSync(join(run.home, '.claude', 'settings.json'), JSON.stringify({ skipDangerousModePermissionPrompt: true }, null, 2))
}

/** Sets a plugin's options in the run's user settings, where the engine reads a
 * --plugin-dir plugin's options (key `<name>@inline`). */
export function setPluginOptions(run: RunDir, pluginId: string, options: Record<string, unknown>): void {
  const path = join(run.home, '.claude', 'settings.json')
  const settings = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
  settings.pluginConfigs = { [pluginId]: { options } }
  writeFileSync(path, JSON.stringify(settings, null, 2))
}
