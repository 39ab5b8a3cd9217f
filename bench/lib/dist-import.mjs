/**
 * A module of a built dist/, wherever that build kept it: mock/ got its folders in issue 34 (mock/server.js became
 * mock/transport/server.js), and the benches that time an earlier build (`--dist`, `--a`) read either.
 */
export async function importFirst(dist, files) {
  for (const file of files) {
    try {
      return await import(new URL(file, dist).href);
    } catch (error) {
      if (error.code !== 'ERR_MODULE_NOT_FOUND' || file === files.at(-1)) throw error;
    }
  }
  throw new Error('importFirst: no file given');
}

export const SERVER_MODULES = ['mock/transport/server.js', 'mock/server.js'];
export const JSON_MODULES = ['mock/engine/json.js', 'mock/json.js'];
