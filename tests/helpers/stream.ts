/** Reading a Server-Sent Events response in a test: until the text so far says what is wanted, or fail after `ms`. */
export async function readUntil(
  reader: { read(): Promise<{ done: boolean; value?: Uint8Array }> },
  want: (text: string) => boolean,
  ms = 2000,
): Promise<string> {
  const dec = new TextDecoder()
  let text = ''
  const deadline = Date.now() + ms
  while (!want(text)) {
    const left = deadline - Date.now()
    if (left <= 0) throw new Error(`stream did not say it in time:\n${text}`)
    const chunk = await Promise.race([reader.read(), Bun.sleep(left).then(() => ({ done: true, value: undefined }))])
    if (chunk.done) throw new Error(`stream ended:\n${text}`)
    text += dec.decode(chunk.value)
  }
  return text
}
