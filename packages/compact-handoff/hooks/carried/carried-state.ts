// What a stub carries beyond the conversation, in `$.state`: the skills
// invoked, the deferred tools loaded, the plan approved, the worktree entered.
// The engine lists what a module reads and writes by scanning each read/update
// for an atom declared in the same file, so every access to these atoms lives
// here, beside the folder that owns them (types/index.d.ts spells their shapes).
import { atom, read, update, type EngineInterface } from 'claude-code'
import { NO_SKILLS, type InvokedSkills } from './skills.js'
import type { CarriedPlan } from './plan.js'
import type { CarriedWorktree } from './worktree.js'

type $ = EngineInterface

const skillsAtom = atom({ plugin: 'compact-handoff', key: 'skills' } as const, NO_SKILLS)
const loadedToolsAtom = atom({ plugin: 'compact-handoff', key: 'loadedTools' } as const, [] as readonly string[])
const planAtom = atom({ plugin: 'compact-handoff', key: 'plan' } as const, null as CarriedPlan | null)
const worktreeAtom = atom({ plugin: 'compact-handoff', key: 'worktree' } as const, null as CarriedWorktree | null)

// The same value, read with its version beside the masking of a skill as it
// loads and written back with a compare-and-set: one hop for both, not two.
const SKILLS_REF = { plugin: 'compact-handoff', key: 'skills' } as const

export function readSkills($: $): Promise<InvokedSkills> {
  return read($, skillsAtom)
}

export async function updateSkills($: $, change: (skills: InvokedSkills) => InvokedSkills): Promise<void> {
  await update($, skillsAtom, change)
}

/** The skills as read, with the version a write back must meet. */
export type HeldSkills = { skills: InvokedSkills; version: number }

export async function readHeldSkills($: $): Promise<HeldSkills> {
  const held = await $.state.get(SKILLS_REF)
  return { skills: held.value ?? NO_SKILLS, version: held.version }
}

/** Writes `change` of the skills as read; a miss means another write landed
 * since the read: the change is applied again to the skills that stand now. */
export async function changeHeldSkills($: $, held: HeldSkills, change: (skills: InvokedSkills) => InvokedSkills): Promise<void> {
  if (!(await $.state.set(SKILLS_REF, change(held.skills), { ifVersion: held.version })).isSet) await updateSkills($, change)
}

export function readLoadedTools($: $): Promise<readonly string[]> {
  return read($, loadedToolsAtom)
}

export async function updateLoadedTools($: $, change: (tools: readonly string[]) => readonly string[]): Promise<void> {
  await update($, loadedToolsAtom, change)
}

export function readPlan($: $): Promise<CarriedPlan | null> {
  return read($, planAtom)
}

export async function updatePlan($: $, change: (plan: CarriedPlan | null) => CarriedPlan | null): Promise<void> {
  await update($, planAtom, change)
}

export function readWorktree($: $): Promise<CarriedWorktree | null> {
  return read($, worktreeAtom)
}

export async function updateWorktree($: $, change: (worktree: CarriedWorktree | null) => CarriedWorktree | null): Promise<void> {
  await update($, worktreeAtom, change)
}

