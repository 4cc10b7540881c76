/**
 * In-page dialogs for the scorekeeper's decisions, on the native `<dialog>` (modal, labelled by its title, focus on
 * its first control). Each returns a Promise of the answer, or `undefined` when the person cancels: the Cancel
 * button or Escape, and then nothing is recorded. No `prompt`, `confirm` or `alert` anywhere.
 */

let made = 0;

/** A small element maker (this module stands alone: render.ts uses it, not the other way round). */
function make<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

interface Frame {
  readonly dialog: HTMLDialogElement;
  readonly form: HTMLFormElement;
  /** Where the dialog's own controls go, between the title (and text) and the row of buttons. */
  readonly body: HTMLElement;
  /** The row of buttons at the bottom: the cancel button is already in it. */
  readonly buttons: HTMLElement;
  readonly id: string;
}

/**
 * Opens a modal dialog titled `title`, with `text` under it and a cancel button labelled `cancel`; `build` adds the
 * controls and calls `done` with the answer. Escape, or the cancel button, answers `undefined`.
 */
function open<T>(
  options: { title: string; text?: string; cancel?: string; className?: string },
  build: (frame: Frame, done: (value: T) => void) => void,
): Promise<T | undefined> {
  return new Promise((resolve) => {
    const id = `dialog-${++made}`;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = make('dialog', {
      class: `ask${options.className ? ` ${options.className}` : ''}`,
      'aria-labelledby': `${id}-title`,
    });
    const form = make('form', { novalidate: '' });
    form.append(make('h2', { id: `${id}-title` }, options.title));
    if (options.text) {
      form.append(make('p', { id: `${id}-text`, class: 'dialog-text' }, options.text));
      dialog.setAttribute('aria-describedby', `${id}-text`);
    }
    const body = make('div', { class: 'dialog-body' });
    const buttons = make('div', { class: 'dialog-buttons' });
    const cancel = make('button', { type: 'button', class: 'cancel', 'data-choice': 'cancel' });
    cancel.textContent = options.cancel ?? 'Cancel';
    buttons.append(cancel);
    form.append(body, buttons);
    dialog.append(form);

    let answer: { value: T } | undefined;
    // Closing is the one way out: Escape closes the dialog itself; the buttons close it with or without an answer.
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(answer?.value);
      // Back to the control that opened the dialog, or to the one that replaced it when the page re-rendered.
      const action = opener?.dataset.action;
      const again = opener?.isConnected
        ? opener
        : action
          ? document.querySelector<HTMLElement>(`[data-action="${CSS.escape(action)}"]`)
          : null;
      again?.focus();
    });
    cancel.onclick = () => dialog.close();
    build({ dialog, form, body, buttons, id }, (value) => {
      answer = { value };
      dialog.close();
    });
    document.body.append(dialog);
    dialog.showModal();
    const first = body.querySelector<HTMLElement>('input, select, textarea, button') ?? cancel;
    first.focus();
    if (first instanceof HTMLInputElement) first.select();
  });
}

export interface Choice<T> {
  readonly label: string;
  readonly value: T;
  /** The button's `data-choice` (for tests and styles); the label when absent. */
  readonly name?: string;
}

/** One button per choice, and Cancel: the answer is the value of the button pressed. */
export function choose<T>(options: {
  title: string;
  text?: string;
  choices: readonly Choice<T>[];
  cancel?: string;
}): Promise<T | undefined> {
  return open<T>(options, ({ body }, done) => {
    const list = make('div', { class: 'dialog-choices' });
    for (const c of options.choices) {
      const b = make('button', { type: 'button', 'data-choice': c.name ?? c.label }, c.label);
      b.onclick = () => done(c.value);
      list.append(b);
    }
    body.append(list);
  });
}

/** A question with two explicit verbs: true when the person chose `yes`, false for `no` or Escape. */
export async function confirmDialog(options: {
  title: string;
  text?: string;
  yes: string;
  no: string;
}): Promise<boolean> {
  const answer = await choose({
    title: options.title,
    text: options.text,
    choices: [{ label: options.yes, value: true, name: 'yes' }],
    cancel: options.no,
  });
  return answer === true;
}

export interface Field {
  readonly label: string;
  readonly value?: string;
  readonly type?: 'text' | 'number';
  readonly inputmode?: 'text' | 'numeric';
  readonly min?: number;
  readonly max?: number;
  readonly maxlength?: number;
  readonly placeholder?: string;
  /** The input's `name` (for tests); `field-N` when absent. */
  readonly name?: string;
}

/** What a dialog's `check` says of the answers: the value to return, or what is wrong (and in which field). */
export type Checked<T> = { readonly value: T } | { readonly error: string; readonly field?: number };

/**
 * Inputs, one per field, and a submit button labelled `submit`: `check` turns the typed answers into the value,
 * or says what is wrong, shown inline under the field (the dialog stays open until the answer is right).
 */
export function askFields<T>(options: {
  title: string;
  text?: string;
  fields: readonly Field[];
  submit: string;
  check: (values: string[]) => Checked<T>;
  /** A last line under the fields (e.g. what a rule does with the answers). */
  note?: string;
  className?: string;
}): Promise<T | undefined> {
  return open<T>(options, ({ form, body, buttons, id }, done) => {
    const inputs: HTMLInputElement[] = [];
    const errors: HTMLElement[] = [];
    options.fields.forEach((f, i) => {
      const inputId = `${id}-field-${i}`;
      const label = make('label', { for: inputId }, f.label);
      const input = make('input', {
        id: inputId,
        name: f.name ?? `field-${i}`,
        type: f.type ?? 'text',
        autocomplete: 'off',
        autocapitalize: 'characters',
        spellcheck: 'false',
        'aria-describedby': `${id}-error-${i}`,
      });
      if (f.inputmode) input.inputMode = f.inputmode;
      if (f.min !== undefined) input.min = String(f.min);
      if (f.max !== undefined) input.max = String(f.max);
      if (f.maxlength !== undefined) input.maxLength = f.maxlength;
      if (f.placeholder) input.placeholder = f.placeholder;
      input.value = f.value ?? '';
      const error = make('p', { id: `${id}-error-${i}`, class: 'dialog-error', role: 'alert' });
      error.hidden = true;
      input.addEventListener('input', () => {
        input.removeAttribute('aria-invalid');
        error.hidden = true;
        error.textContent = '';
      });
      const row = make('div', { class: 'dialog-field' });
      row.append(label, input, error);
      body.append(row);
      inputs.push(input);
      errors.push(error);
    });
    if (options.note) body.append(make('p', { class: 'dialog-note' }, options.note));
    const submit = make(
      'button',
      { type: 'submit', class: 'primary', 'data-choice': 'submit' },
      options.submit,
    );
    buttons.prepend(submit);
    form.onsubmit = (e) => {
      e.preventDefault();
      const result = options.check(inputs.map((i) => i.value));
      if ('value' in result) return done(result.value);
      const at = Math.min(result.field ?? 0, inputs.length - 1);
      errors[at]!.textContent = result.error;
      errors[at]!.hidden = false;
      inputs[at]!.setAttribute('aria-invalid', 'true');
      inputs[at]!.focus();
    };
  });
}

/** One input: `askFields` with a single field. */
export function askText<T>(options: {
  title: string;
  text?: string;
  field: Field;
  submit: string;
  check: (value: string) => Checked<T>;
  note?: string;
}): Promise<T | undefined> {
  return askFields({ ...options, fields: [options.field], check: ([v]) => options.check(v ?? '') });
}
