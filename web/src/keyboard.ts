/** The inspector's keyboard manners: shortcuts act only outside text boxes, and Esc leaves a box. */

/** Input types that take no typed text: a shortcut pressed while one has focus is still a shortcut. */
const NON_TEXT_INPUTS = new Set([
  'checkbox',
  'radio',
  'button',
  'submit',
  'reset',
  'range',
  'color',
  'file',
  'image',
]);

/** True when `element` takes typed text (a text-like input, a textarea, a select, an editable element). */
export function isTextBox(element: Element | null): boolean {
  if (!element) return false;
  if (element instanceof HTMLInputElement) return !NON_TEXT_INPUTS.has(element.type);
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  return element instanceof HTMLElement && element.isContentEditable;
}

/**
 * True when a key press may act as a shortcut: no text box has focus (so `n`, `g` or a digit typed into a box
 * stays in it) and no modifier other than Shift is held.
 */
export function isShortcut(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return false;
  return !isTextBox(document.activeElement);
}

/** Esc in a text box leaves it (blurs it), so the shortcuts act again. Returns the uninstaller. */
export function leaveBoxOnEscape(): () => void {
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    const active = document.activeElement;
    if (active instanceof HTMLElement && isTextBox(active)) {
      event.preventDefault();
      active.blur();
    }
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}
