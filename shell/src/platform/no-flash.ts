import {
  COLOR_SCHEMES,
  COLOR_SCHEME_STORAGE_KEY,
  CULTURE_COOKIE,
  HELD_SUBMIT_ATTRIBUTE,
  HELD_SUBMIT_FALLBACK_MS,
  LOCALE_STORAGE_KEY,
  RTL_LANGUAGES,
} from 'shared-contracts';

/**
 * The inline script the shell's index.html runs in `<head>` before first paint (nonce `__CSP_NONCE__`, replaced
 * by the gateway per response): it paints the saved theme and the saved language's `lang`/`dir` so the page
 * never flashes light-then-dark or LTR-then-RTL while the bundle loads. It mirrors theme.ts and language.ts; the
 * unit test runs both on the same inputs. It also holds a submit of the drawn first paint (ADR 0007): a visitor who
 * presses Enter before the app took over is signed in once it has, instead of a plain post that reloads the page
 * and loses the password; if the app never comes, the plain post goes after {@link HELD_SUBMIT_FALLBACK_MS}. It
 * must stay small, dependency-free ES5 and never throw.
 */
export function noFlashScript(): string {
  const json = (value: unknown) => JSON.stringify(value);
  return (
    '(function(){var d=document.documentElement;try{' +
    `var s=localStorage.getItem(${json(COLOR_SCHEME_STORAGE_KEY)});` +
    `if(${json(COLOR_SCHEMES)}.indexOf(s)<0)s="auto";` +
    'var k=s==="dark"||(s==="auto"&&!!window.matchMedia&&window.matchMedia("(prefers-color-scheme: dark)").matches);' +
    'd.setAttribute("data-theme",k?"dark":"light");d.setAttribute("data-color-scheme",s);d.style.colorScheme=k?"dark":"light";' +
    '}catch(e){}try{' +
    'var t=/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}$/,l=null;' +
    `try{l=localStorage.getItem(${json(LOCALE_STORAGE_KEY)});}catch(e){}` +
    'if(!l||!t.test(l)){l=null;var c=document.cookie.split(";");for(var i=0;i<c.length;i++){' +
    'var p=c[i].replace(/^\\s+/,""),q=p.indexOf("=");' +
    `if(q>0&&p.slice(0,q)===${json(CULTURE_COOKIE)}){var v=p.slice(q+1);try{v=decodeURIComponent(v);}catch(e){}` +
    'var m=/(?:^|\\|)c=([^|]*)/.exec(v);if(m&&t.test(m[1]))l=m[1];}}}' +
    `if(l){d.lang=l;d.dir=${json(RTL_LANGUAGES)}.indexOf(l.split("-")[0].toLowerCase())>=0?"rtl":"ltr";}` +
    '}catch(e){}try{' +
    'var w=function(){var r=document.getElementById("root");return r&&r.hasAttribute("data-first-paint")?r:null;};' +
    'document.addEventListener("submit",function(e){var r=w();if(!r)return;' +
    'var f=e.target,a=r.getElementsByTagName("form"),i=0;for(;i<a.length&&a[i]!==f;i++);if(i>=a.length)return;' +
    `e.preventDefault();d.setAttribute(${json(HELD_SUBMIT_ATTRIBUTE)},String(i));` +
    `setTimeout(function(){if(w()&&d.getAttribute(${json(HELD_SUBMIT_ATTRIBUTE)})===String(i)){` +
    `d.removeAttribute(${json(HELD_SUBMIT_ATTRIBUTE)});f.submit();}},${HELD_SUBMIT_FALLBACK_MS});},true);` +
    '}catch(e){}})();'
  );
}

/** The script text, ready for `<script nonce="__CSP_NONCE__">…</script>`. */
export const NO_FLASH_SCRIPT = noFlashScript();
