/**
 * The one reader of a request's `messages` (the mock logs them; tests, demo and bench
 * read them). Claude Code 2.1.332 sends `role: "system"` entries between turns
 * (seen on Claude Code 2.1.332); every reader here skips them, so "last user
 * message" means the person's or the tool results' message.
 */
export interface Message {
  role: string
  content: unknown
}

/** A content block, as far as the harness reads it. */
export interface Block {
  type?: string
  text?: string
  name?: string
  tool_use_id?: string
  /** A tool_result's content: a string or blocks. */
  content?: unknown
  is_error?: boolean
}

/** What every request body the mock logs holds, as far as these readers go. */
interface WithMessages {
  messages?: Message[]
}

/** A message's blocks; string content counts as one text block. */
export function blocksOf(message: Message): Block[] {
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }]
  if (!Array.isArray(message.content)) return []
  return message.content.filter((b): b is Block => typeof b === 'object' && b !== null)
}

/** The text of a message's text blocks, one entry per block. */
export function textBlocksOf(message: Message): string[] {
  return blocksOf(message).flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : []))
}

/** The conversation messages of a request body, without the engine's `role: "system"` entries. */
export function conversationOf(request: { body?: WithMessages | undefined }): Message[] {
  return (request.body?.messages ?? []).filter((m) => m.role === 'user' || m.role === 'assistant')
}

function userMessagesOf(body: WithMessages | undefined): Message[] {
  return (body?.messages ?? []).filter((m) => m.role === 'user')
}

/** Text blocks of the last `role: "user"` message, joined by newlines. */
export function lastUserTextOf(body: WithMessages | undefined): string {
  const last = userMessagesOf(body).at(-1)
  return last === undefined ? '' : textBlocksOf(last).join('\n')
}

/** Text blocks of every `role: "user"` message, in order. The engine merges the stub,
 * its context reminders and the continue-prompt into one user message, one block each. */
export function userBlocks(request: { body?: WithMessages | undefined }): string[] {
  return userMessagesOf(request.body).flatMap(textBlocksOf)
}

/** The text a message carries: its text blocks, and other blocks as `[type name]`. */
export function messageTextOf(message: Message): string {
  if (typeof message.content === 'string') return message.content
  return blocksOf(message)
    .map((b) => (b.type === 'text' ? (b.text ?? '') : `[${b.type ?? 'block'}${b.name === undefined ? '' : ` ${b.name}`}]`))
    .join('\n')
}

/** The tool_result block for tool_use `id` in the request's last user message, if it holds one. */
export function toolResultOf(request: { body?: WithMessages | undefined }, id: string): Block | undefined {
  const last = userMessagesOf(request.body).at(-1)
  if (last === undefined || !Array.isArray(last.content)) return undefined
  return blocksOf(last).find((b) => b.type === 'tool_result' && b.tool_use_id === id)
}

/** Whether the request's last user message holds the result of tool_use `id`. */
export function carriesToolResult(request: { body?: WithMessages | undefined }, id: string): boolean {
  return toolResultOf(request, id) !== undefined
}
