/**
 * The first `size` bytes of a body (all of it when shorter), and the whole body again to read
 * on from its start: what an application/octet-stream upload is is told by its first bytes
 * before anything of it is stored.
 */
export async function peekBody(body: AsyncIterable<Uint8Array>, size: number): Promise<{ head: Uint8Array; body: AsyncGenerator<Uint8Array> }> {
  const iterator = body[Symbol.asyncIterator]();
  const read: Uint8Array[] = [];
  let length = 0;
  let ended = false;
  while (length < size) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    read.push(next.value);
    length += next.value.length;
  }
  async function* whole(): AsyncGenerator<Uint8Array> {
    yield* read;
    if (ended) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { head: Buffer.concat(read).subarray(0, size), body: whole() };
}
