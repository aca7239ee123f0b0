/**
 * Go (RE2) regular expression syntax written as JavaScript's, for the secret rules vendored from gitleaks. Node 20's
 * regular expressions have no inline flags (`(?i)`, `(?i:…)`, `(?-i:…)`, `(?s)`), so the flags are carried out in
 * the pattern itself: a letter under `i` becomes `[xX]`, a class gets both cases, `.` under `s` becomes `[^]`. The
 * rest maps one to one: `(?P<name>` is `(?<name>`, `\z` the end of the text, `[[:alnum:]]` its class. Anything this
 * does not know throws, so a new construct in a later gitleaks is seen at vendoring, never mistranslated.
 */

interface Flags {
  readonly i: boolean;
  readonly s: boolean;
  readonly m: boolean;
}

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

/** The JavaScript source of a Go pattern (used with no flags but `g`). */
export function goRegexToJs(pattern: string): string {
  return new GoRegexReader(pattern).read();
}

class GoRegexReader {
  private at = 0;

  constructor(private readonly source: string) {}

  read(): string {
    const out = this.sequence({ i: false, s: false, m: false }, false);
    if (this.at < this.source.length) throw new Error(`unbalanced ')' at ${this.at} in ${this.source}`);
    return out;
  }

  /** Reads up to the `)` that closes the current group (or the end); an inline `(?flags)` changes the rest of it. */
  private sequence(outer: Flags, inGroup: boolean): string {
    let flags = outer;
    let out = '';
    while (this.at < this.source.length) {
      const c = this.source[this.at];
      if (c === ')') {
        if (!inGroup) throw new Error(`unbalanced ')' in ${this.source}`);
        return out;
      }
      if (c === '(') {
        const inline = /^\(\?([imsU-]+)\)/.exec(this.source.slice(this.at));
        if (inline) {
          flags = withFlags(flags, inline[1]);
          this.at += inline[0].length;
          continue;
        }
        out += this.group(flags);
        continue;
      }
      out += this.atom(flags);
    }
    if (inGroup) throw new Error(`unclosed '(' in ${this.source}`);
    return out;
  }

  private group(flags: Flags): string {
    const rest = this.source.slice(this.at);
    let open: string;
    let inner = flags;
    const scoped = /^\(\?([imsU-]+):/.exec(rest);
    const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
    if (scoped) {
      open = '(?:';
      inner = withFlags(flags, scoped[1]);
      this.at += scoped[0].length;
    } else if (named) {
      open = `(?<${named[1]}>`;
      this.at += named[0].length;
    } else if (rest.startsWith('(?:')) {
      open = '(?:';
      this.at += 3;
    } else if (rest.startsWith('(?')) {
      throw new Error(`unknown group ${rest.slice(0, 6)} in ${this.source}`);
    } else {
      open = '(';
      this.at += 1;
    }
    const body = this.sequence(inner, true);
    this.at += 1; // the ')'
    return `${open}${body})`;
  }

  private atom(flags: Flags): string {
    const c = this.source[this.at];
    switch (c) {
      case '\\':
        return this.escape(flags);
      case '[':
        return this.characterClass(flags);
      case '.':
        this.at++;
        return flags.s ? '[^]' : '[^\\n]';
      case '^':
        this.at++;
        return flags.m ? '(?<![^\\n])' : '^';
      case '$':
        // Without `m` both mean the ends of the whole text, as JavaScript's do without its `m` flag.
        this.at++;
        return flags.m ? '(?![^\\n])' : '$';
      default:
        this.at++;
        return flags.i ? caseless(c) : c;
    }
  }

  private escape(flags: Flags): string {
    const next = this.source[this.at + 1];
    if (next === undefined) throw new Error(`trailing '\\' in ${this.source}`);
    if (next === 'z') {
      this.at += 2;
      return '(?![^])';
    }
    if (next === 'A') {
      this.at += 2;
      return '(?<![^])';
    }
    if (next === 'Q') {
      const end = this.source.indexOf('\\E', this.at + 2);
      const literal = this.source.slice(this.at + 2, end === -1 ? undefined : end);
      this.at = end === -1 ? this.source.length : end + 2;
      return [...literal].map((ch) => (/[A-Za-z]/.test(ch) && flags.i ? caseless(ch) : escapeLiteral(ch))).join('');
    }
    if (next === 'x') {
      const braced = /^\\x\{([0-9A-Fa-f]+)\}/.exec(this.source.slice(this.at));
      const plain = /^\\x[0-9A-Fa-f]{2}/.exec(this.source.slice(this.at));
      if (braced && braced[1].length <= 4) {
        this.at += braced[0].length;
        return braced[1].length <= 2 ? `\\x${braced[1].padStart(2, '0')}` : `\\u${braced[1].padStart(4, '0')}`;
      }
      if (plain) {
        this.at += plain[0].length;
        return plain[0];
      }
    }
    if (next === 'p' || next === 'P') throw new Error(`Unicode classes are not translated: ${this.source}`);
    if ('dDwWsSbBnrtfv'.includes(next) || !/[A-Za-z0-9]/.test(next)) {
      this.at += 2;
      return `\\${next}`;
    }
    throw new Error(`unknown escape \\${next} in ${this.source}`);
  }

  private characterClass(flags: Flags): string {
    this.at++; // '['
    let out = '[';
    if (this.source[this.at] === '^') {
      out += '^';
      this.at++;
    }
    const members: string[] = [];
    let first = true;
    while (this.at < this.source.length && (this.source[this.at] !== ']' || first)) {
      first = false;
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.source.slice(this.at));
      if (posix) {
        const range = POSIX_CLASSES[posix[2]];
        if (range === undefined || posix[1] === '^') throw new Error(`unknown class ${posix[0]} in ${this.source}`);
        members.push(range);
        this.at += posix[0].length;
        continue;
      }
      const c = this.source[this.at];
      if (c === '\\') {
        const escaped = this.source.slice(this.at, this.at + 2);
        const hex = /^\\x[0-9A-Fa-f]{2}/.exec(this.source.slice(this.at));
        if (hex) {
          members.push(hex[0]);
          this.at += hex[0].length;
          continue;
        }
        if (escaped === '\\p' || escaped === '\\P') throw new Error(`Unicode classes are not translated: ${this.source}`);
        members.push(escaped);
        this.at += 2;
        continue;
      }
      // A range of letters under `i` takes the other case's range too.
      const range = /^([A-Za-z])-([A-Za-z])/.exec(this.source.slice(this.at));
      if (range && flags.i) {
        members.push(range[0], otherCaseRange(range[1], range[2]));
        this.at += 3;
        continue;
      }
      if (c === '[') members.push('\\[');
      else members.push(flags.i && /[A-Za-z]/.test(c) ? `${c.toLowerCase()}${c.toUpperCase()}` : c);
      this.at++;
    }
    if (this.source[this.at] !== ']') throw new Error(`unclosed '[' in ${this.source}`);
    this.at++;
    return `${out}${members.join('')}]`;
  }
}

function withFlags(flags: Flags, spec: string): Flags {
  const [on, off = ''] = spec.split('-');
  if (/U/.test(spec)) throw new Error(`the U flag is not translated: (?${spec})`);
  return {
    i: off.includes('i') ? false : on.includes('i') || flags.i,
    s: off.includes('s') ? false : on.includes('s') || flags.s,
    m: off.includes('m') ? false : on.includes('m') || flags.m,
  };
}

function caseless(c: string): string {
  if (!/[A-Za-z]/.test(c)) return c;
  return `[${c.toLowerCase()}${c.toUpperCase()}]`;
}

function otherCaseRange(from: string, to: string): string {
  const swap = (c: string): string => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());
  return `${swap(from)}-${swap(to)}`;
}

function escapeLiteral(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}
