import type { GitChange } from './repository-guard.js';

/**
 * The reason a call that changed git metadata (or left a folder the guard could not examine) is reported as
 * refused, or `undefined` when there is nothing to report: what was found, what was done about each, and what is
 * left to the user.
 */
export function gitRefusal(executor: string, changes: readonly GitChange[]): string | undefined {
  if (changes.length === 0) return undefined;
  const listed = changes.map((change) => `${change.path} ${change.change}: ${change.action}`).join('; ');
  const changed = changes.some((change) => change.change !== 'unexamined');
  const unexamined = changes.some((change) => change.change === 'unexamined');
  const what = [
    ...(changed ? ['changed git metadata in a write root, which git on the host would act on'] : []),
    ...(unexamined
      ? ['left folders in a write root that the sandbox could not examine for git metadata']
      : []),
  ].join(', and ');
  const left = changes.some((change) => !change.undone)
    ? ' Not every change could be undone: the user must check the paths above before running git there.'
    : '';
  return (
    `Refused: ${executor} ${what} (${listed}).${left} Creating or changing a repository (.git, a bare git ` +
    'directory, a core.hooksPath folder) or .gitmodules is left to the user, outside the sandbox; the other files ' +
    'the call wrote stay as they are.'
  );
}
