// A per-test script: replies handed out in request order. Past its end a route answers "no scripted reply", so a
// test that sends more requests than it expected fails with a message naming the extra request.

export function inOrder<Reply>(
  replies: readonly Reply[],
): (request: unknown, index: number) => Reply | undefined {
  return (_request, index) => replies[index]
}
