// The one caller of `$.ui.toast`: a toast from the table (toasts.ts), and its
// detail, when it has one, as a transcript line beside it (drawn dim, never
// sent to the model), so what the box cannot hold is still read.
import type { EngineInterface } from 'claude-code'
import type { Toast } from './toasts.js'

type $ = EngineInterface

export function showToast($: $, toast: Toast, timeoutMs?: number): void {
  $.ui.toast(toast.text, timeoutMs === undefined ? undefined : { timeoutMs })
  if (toast.detail !== undefined) $.ui.log(toast.detail)
}
