// Every element of the dashboard is made here, with text set through text nodes only: nothing
// that came from the API is ever parsed as HTML, so a job type or an error message cannot
// inject markup.

/** What {@link el} may set on an element besides its children. */
export interface ElementProps {
  /** `data-testid`: the stable handle the browser tests use. */
  testId?: string;
  className?: string;
  /** Attributes, set with `setAttribute`; `null` and `undefined` values are left out. */
  attrs?: Record<string, string | number | boolean | null | undefined>;
  /** `data-*` attributes, by their name without the prefix. */
  data?: Record<string, string | number | null | undefined>;
  on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
}

/** A child: an element, or text (numbers included); `null`, `undefined` and `false` are skipped. */
export type Child = Node | string | number | null | undefined | false;

/** Makes an element with its props and children. Strings become text nodes, never markup. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: ElementProps = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.testId) element.dataset['testid'] = props.testId;
  if (props.className) element.className = props.className;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const [name, value] of Object.entries(props.data ?? {})) {
    if (value !== null && value !== undefined) element.dataset[name] = String(value);
  }
  for (const [type, listener] of Object.entries(props.on ?? {})) {
    element.addEventListener(type, listener as EventListener);
  }
  append(element, ...children);
  return element;
}

/** Appends children as {@link el} does. */
export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces every child of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/**
 * Runs `rebuild`, which replaces part of `root`, and gives focus back to the element that had it:
 * an element marked `data-focus-key` whose new copy carries the same key. A refresh every few
 * seconds must not throw a keyboard user back to the top of the page.
 */
export function keepingFocus(root: Element, rebuild: () => void): void {
  const active = document.activeElement;
  const key = active instanceof HTMLElement && root.contains(active) ? active.dataset['focusKey'] : undefined;
  rebuild();
  if (key === undefined) return;
  for (const candidate of root.querySelectorAll<HTMLElement>('[data-focus-key]')) {
    if (candidate.dataset['focusKey'] === key) {
      candidate.focus();
      return;
    }
  }
}
