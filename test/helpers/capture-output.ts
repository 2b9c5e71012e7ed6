// Runs a CLI entry in process with stdout and stderr captured (jest spies), restoring them whatever happens.
export async function captureOutput(run: () => Promise<number>): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = jest.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => {
    out += c.toString();
    return true;
  });
  const e = jest.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => {
    err += c.toString();
    return true;
  });
  try {
    const code = await run();
    return { code, out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}
