/**
 * The code and Status message of a client-node call the server refused (client-node throws an
 * ApiException-like `{ code, body }`); throws when the call succeeds.
 */
export async function refusal(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await call;
  } catch (e) {
    const err = e as { code?: number; body?: string };
    return { code: err.code ?? 0, message: (JSON.parse(err.body ?? '{}') as { message?: string }).message ?? '' };
  }
  throw new Error('the request succeeded');
}
