/** A Logger that masks credentials in everything it passes on (see `maskSecrets`). */
import type { Logger } from '../ports';
import { maskSecrets } from './secrets';

const masked = (args: readonly unknown[]): unknown[] => args.map((a) => (typeof a === 'string' ? maskSecrets(a) : a));

/** Wraps a logger (VS Code's LogOutputChannel, say) so no log line shows a credential. */
export function maskingLogger(inner: Logger): Logger {
  return {
    trace: (message, ...args) => inner.trace(maskSecrets(message), ...masked(args)),
    debug: (message, ...args) => inner.debug(maskSecrets(message), ...masked(args)),
    info: (message, ...args) => inner.info(maskSecrets(message), ...masked(args)),
    warn: (message, ...args) => inner.warn(maskSecrets(message), ...masked(args)),
    error: (error, ...args) => {
      if (typeof error === 'string') return inner.error(maskSecrets(error), ...masked(args));
      const copy = new Error(maskSecrets(error.message));
      copy.name = error.name;
      copy.stack = error.stack === undefined ? undefined : maskSecrets(error.stack);
      return inner.error(copy, ...masked(args));
    },
  };
}
