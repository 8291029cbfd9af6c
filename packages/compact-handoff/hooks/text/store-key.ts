// The parts of a `$.store` key: the engine refuses a key over 256 characters
// (get, set and delete alike: "the key is N characters, over the 256 limit"),
// and a project path or a file's path may be longer than that, so a key never
// holds one: it holds the SHA-256 of it, 64 characters whatever the path.
// Pure: no `$` (crypto.subtle is the module environment's, and Node's).

/** The engine's longest `$.store` key (2.1.332). */
export const STORE_KEY_LIMIT_CHARS = 256

/** SHA-256 of the text's UTF-8 bytes, lowercase hex: 64 characters. */
export async function sha256HexOf(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
  let hex = ''
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0')
  return hex
}

/** `prefix` and the digest of each part, joined by colons: a fixed length for a
 * fixed number of parts, so a short prefix keeps any key within the limit. */
export async function storeKeyOf(prefix: string, ...parts: readonly string[]): Promise<string> {
  const digests = await Promise.all(parts.map(sha256HexOf))
  return `${prefix}${digests.join(':')}`
}
