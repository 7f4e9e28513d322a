/**
 * The extension's exports before the rest of it has loaded (src/extension.ts): the same API, which loads the rest
 * on first use. Not `then`: VS Code (and any `await`) asks whether the exports are a promise, and that question must
 * not load anything.
 */
import type { AcpClientApi } from '../api';

export function lazyApi(load: (use: string) => AcpClientApi): AcpClientApi {
  const target: Partial<AcpClientApi> = {};
  return new Proxy(target as AcpClientApi, {
    get: (_target, key) => (key === 'then' || typeof key === 'symbol' ? undefined : Reflect.get(load(`the API's ${key}`), key)),
    has: (_target, key) => key !== 'then' && typeof key === 'string' && key in load(`the API's ${key}`),
  });
}
