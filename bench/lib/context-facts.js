/**
 * The benchmark's own definition of a "fact" (independent of the preview code it judges).
 *
 * An identifier is a match of `[A-Za-z_][A-Za-z0-9_.]{7,}` with trailing dots (sentence ends) removed, 8+ chars.
 * A text "contains" an identifier when the identifier occurs in it bounded by characters outside `[A-Za-z0-9_]`:
 * `self.field.disabled` contains `self.field` and `field.disabled`, not `field_name`. A fact of step i is an
 * identifier that first appears in observation i (not in the task, nor in any earlier action, thought or
 * observation, nor in action/thought i) and that appears again later (an action or thought after step i, or the
 * final patch).
 */

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_.]{7,}/g;
const MAX_SEGMENTS = 12;

/** Identifiers of `text` (trailing dots stripped), as a Set. */
export function identifiersOf(text) {
  const found = new Set();
  for (const match of (text ?? '').matchAll(IDENTIFIER)) {
    const identifier = match[0].replace(/\.+$/, '');
    if (identifier.length >= 8) found.add(identifier);
  }
  return found;
}

/** Everything `text` contains: its identifiers and their dotted sub-paths that are identifiers themselves. */
export function containedIn(text, into = new Set()) {
  for (const identifier of identifiersOf(text)) {
    into.add(identifier);
    const parts = identifier.split('.');
    if (parts.length === 1 || parts.length > MAX_SEGMENTS) continue;
    for (let start = 0; start < parts.length; start++) {
      for (let end = start + 1; end <= parts.length; end++) {
        const form = parts.slice(start, end).join('.');
        if (form.length >= 8 && /^[A-Za-z_]/.test(form)) into.add(form);
      }
    }
  }
  return into;
}

/** The facts of each step of a trajectory: `facts[i]` is an array of identifiers. */
export function factsOf(trajectory) {
  const steps = trajectory.steps;
  const later = new Array(steps.length);
  const after = containedIn(trajectory.final ?? '');
  for (let index = steps.length - 1; index >= 0; index--) {
    later[index] = new Set(after);
    containedIn(steps[index].action, after);
    containedIn(steps[index].thought, after);
  }
  const seen = containedIn(trajectory.task);
  return steps.map((step, index) => {
    containedIn(step.action, seen);
    containedIn(step.thought, seen);
    const observation = step.observation ?? '';
    const facts = [...identifiersOf(observation)].filter((id) => !seen.has(id) && later[index].has(id));
    containedIn(observation, seen);
    return facts;
  });
}
