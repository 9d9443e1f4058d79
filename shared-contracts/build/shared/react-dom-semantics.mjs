// Where React DOM and Preact differ in ways our pages notice (docs/adr/0029-preact-in-the-browser.md), made React
// DOM's, installed once with the renderer:
// - When effects run: React runs a commit's effects in a task of their own (its scheduler posts a message); Preact
//   waits for the next animation frame, or 35 ms of setTimeout, which a hidden tab does not draw and a test's fake
//   clock does not advance (the idle warning's showModal then waited for the clock). Preact's hook for that
//   schedule now posts a message too.
// - autoFocus: React DOM focuses the element when it is mounted (and writes no attribute); Preact would write the
//   autofocus attribute, which a browser honours only while the document loads, so a field that appears later
//   (the code field after "Email me a code", a dialog's button) would not take focus.
// - spellCheck={false}: React DOM writes spellcheck="false"; Preact drops an attribute whose value is false, and the
//   field would be spell-checked.
import { options } from 'preact';

const effects = new MessageChannel();
let pending = [];
effects.port1.onmessage = () => {
  const run = pending;
  pending = [];
  for (const callback of run) callback();
};
options.requestAnimationFrame = (callback) => {
  pending.push(callback);
  if (pending.length === 1) effects.port2.postMessage(null);
};

// Elements a vnode with an autoFocus prop has been attached to: focus only at the first attachment (the mount), as
// React DOM does; an autoFocus that turns true on a field already in the page (the password field once a username
// is kept) must not take the focus from where the person is.
const mounted = new WeakSet();

function setRef(ref, value) {
  if (typeof ref === 'function') ref(value);
  else if (ref) ref.current = value;
}

const next = options.vnode;
options.vnode = (vnode) => {
  const props = vnode.props;
  if (typeof vnode.type === 'string' && props) {
    if (props.spellCheck === false) props.spellCheck = 'false';
    if ('autoFocus' in props) {
      const autoFocus = Boolean(props.autoFocus);
      delete props.autoFocus;
      const own = vnode.ref;
      // Refs run once the tree is in place (Preact's commit), so a mounted element is in the document.
      vnode.ref = (element) => {
        if (element && !mounted.has(element)) {
          mounted.add(element);
          if (autoFocus && element.isConnected) element.focus();
        }
        setRef(own, element);
      };
    }
  }
  if (next) next(vnode);
};
