import type { GuardContext } from './guard-context.js';
import { parseCommandVariants } from './shell-segments.js';
import { normalizeUnicode } from './text-variants.js';

/** Identifiers of the rules on text a shell would build at run time (`code:exec` executors only). */
export type ExpansionRuleId =
  | 'command-substitution'
  | 'eval'
  | 'variable-command'
  | 'variable-path'
  | 'pipe-into-interpreter';

/** Each rule's label (in verdicts and logs) and what the model can do instead (in the denial it reads). */
export const EXPANSION_RULES: Record<ExpansionRuleId, { label: string; advice: string }> = {
  'command-substitution': {
    label: 'command substitution ($(…), backticks or <(…)) the guard cannot resolve',
    advice:
      'Run the inner command as a step of its own, then write its result literally into the next command.',
  },
  eval: {
    label: 'eval of text built at run time',
    advice: 'Write the command itself instead of passing it to eval.',
  },
  'variable-command': {
    label: 'a command name taken from a variable',
    advice: 'Write the command name literally.',
  },
  'variable-path': {
    label: 'a path built from a variable the guard cannot resolve',
    advice:
      'Write the path literally (~, $HOME, $PWD and $TMPDIR are fine), or assign the variable once in the same command (D=docs; ls $D/).',
  },
  'pipe-into-interpreter': {
    label: 'text piped into a shell or interpreter',
    advice:
      'Run the commands themselves instead of piping text into sh, bash, python or another interpreter.',
  },
};

/** An expansion found in an argument string. `detail` is for tests: never log it. */
export interface ExpansionFinding {
  rule: ExpansionRuleId;
  detail: string;
}

/** Variables the guard knows the value of (the others are unknown: empty, or anything, at run time). */
const KNOWN_VARIABLES = new Set(['HOME', 'USER', 'LOGNAME', 'PWD', 'OLDPWD', 'TMPDIR']);
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)[^}]*\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;
/** Words that run the command after them: the command name is the next word. */
const WRAPPERS = new Set([
  'sudo',
  'doas',
  'env',
  'nohup',
  'exec',
  'command',
  'builtin',
  'time',
  'nice',
  'ionice',
  'timeout',
  'xargs',
  'then',
  'do',
  'else',
  'if',
  'while',
  'until',
  '!',
]);
const SHELLS = /^(sh|bash|zsh|dash|ksh|mksh|fish|busybox)$/;
const INTERPRETERS = /^(python[\d.]*|perl|node|nodejs|ruby|php|lua|tclsh|osascript)$/;

/**
 * Looks for what the guard cannot check because a shell builds it at run time: `$(…)`, backticks or process
 * substitution; `eval`; a command name taken from a variable; a variable the guard cannot resolve inside a path
 * (`cat ~/$D/id_rsa`, `--out=$X/log`; a variable standing alone as a word is fine); text piped into a shell or
 * an interpreter that reads its program from standard input. Run on the text after `substituteAssignments`.
 */
export function findUnresolvedExpansion(
  command: string,
  context: Pick<GuardContext, 'home' | 'user'>,
): ExpansionFinding | undefined {
  const text = normalizeUnicode(command);
  const substitution = /\$\((?!\()|`|[<>]\(/.exec(text);
  if (substitution) return { rule: 'command-substitution', detail: substitution[0] };
  for (const parsed of parseCommandVariants(text, context)) {
    for (const segment of parsed.segments) {
      const position = commandPosition(segment.words);
      const name = segment.words[position] ?? '';
      const commandName = name.split('/').pop() ?? name;
      if (commandName === 'eval') return { rule: 'eval', detail: name };
      if (unknownVariable(name)) return { rule: 'variable-command', detail: name };
      if (segment.piped && readsProgramFromInput(commandName, segment.words.slice(position + 1)))
        return { rule: 'pipe-into-interpreter', detail: commandName };
      for (const word of segment.words) {
        if (/[/~]|^\./.test(word) && unknownVariable(word)) return { rule: 'variable-path', detail: word };
      }
    }
  }
  return undefined;
}

/** Index of the command name: after assignments (`A=1`), wrappers (`sudo`, `env`) and their options. */
function commandPosition(words: readonly string[]): number {
  let index = 0;
  while (index < words.length) {
    const word = words[index] as string;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || WRAPPERS.has(word) || (index > 0 && word.startsWith('-'))) {
      index += 1;
      continue;
    }
    break;
  }
  return index;
}

function unknownVariable(word: string): boolean {
  for (const match of word.matchAll(VARIABLE)) {
    if (!KNOWN_VARIABLES.has((match[1] ?? match[2]) as string)) return true;
  }
  return false;
}

function readsProgramFromInput(name: string, rest: readonly string[]): boolean {
  // A file to run, or a program given with -c/-e/-r/-p (perl -ne, node --eval): standard input is only data.
  const programGiven = (word: string) =>
    !word.startsWith('-') || /^-[A-Za-z]*[cerp][A-Za-z]*$|^--(?:eval|print|command)$/.test(word);
  return (SHELLS.test(name) || INTERPRETERS.test(name)) && !rest.some(programGiven);
}
