import type { WidgetManifestEntry } from '@app/contracts';
import * as Contracts from '@app/contracts/browser';
import { createInstance, type ModuleFederationRuntimePlugin } from '@module-federation/runtime';
import type { UserOptions } from '@module-federation/runtime/types';
import injectExternalRuntimeCore from '@module-federation/vite/injectExternalRuntimeCorePlugin';
import { EXPOSED_MOUNT, HOST_MODULES, packageOf, type EagerHostModule, type HostModuleName, type LazyHostModule } from '@app/widget-build/host-modules';
import type * as Ui from './ui.ts';

declare const __HOST_VERSIONS__: Record<ReturnType<typeof packageOf>, string>;

type ManifestEntry = Pick<WidgetManifestEntry, 'name' | 'entry' | 'remote' | 'hostModules'>;
type WidgetModule = { mount?: (el: HTMLElement, props: unknown) => () => void };

const LOAD_FAILED = 'Не удалось загрузить модуль страницы. Обновите страницу.';

type UiModule = typeof Ui;
type UiModuleName = keyof UiModule['UI_MODULES'];

/** The modules every page gets with the loader that are not React's (those are in `ui.ts`): the type asks for each one. */
const EAGER: Record<Exclude<EagerHostModule, UiModuleName>, object> = { '@app/contracts/browser': Contracts };

/** The other modules every page gets, those of `ui.ts`: offered at once, answered when that chunk has arrived and run. */
const UI_NAMES = HOST_MODULES.eager.filter((name): name is UiModuleName => !Object.hasOwn(EAGER, name));

/** Chunks of the loader's build, fetched by a page only when one of its widgets imports them. */
const LAZY: Record<LazyHostModule, () => Promise<object>> = {
  '@app/kit/forms': () => import('@app/kit/forms'),
  '@app/kit/dialog': () => import('@app/kit/dialog'),
  '@app/kit/tabs': () => import('@app/kit/tabs'),
  '@app/kit/stream': () => import('@app/kit/stream'),
  '@app/contracts/generation': () => import('@app/contracts/generation'),
};

/**
 * What the page offers the widgets' remotes: each host module one of them declares (`hostModules`
 * of its manifest entry; every one when an entry does not say) as a singleton in the version this
 * loader was built with (a remote checks it against the range it was built for). A module on
 * offer that no remote declares would still cost every remote's init a look at it.
 */
function hostShared(widgets: ManifestEntry[], ui: Promise<UiModule>): NonNullable<UserOptions['shared']> {
  const declared = widgets.some((w) => !w.hostModules) ? null : new Set(widgets.flatMap((w) => w.hostModules ?? []));
  const wanted = (name: string) => !declared || declared.has(name);
  const offer = (name: HostModuleName) => ({ version: __HOST_VERSIONS__[packageOf(name)], scope: 'default', shareConfig: { singleton: true, requiredVersion: false as const } });
  return {
    ...Object.fromEntries(Object.entries(EAGER).filter(([name]) => wanted(name)).map(([name, mod]) => [name, { ...offer(name as EagerHostModule), lib: () => mod }])),
    // Offered as loading, not only as something to get: with 'loaded-first' a remote's singleton is
    // then the page's, even before React's chunk has run, and never a version a remote only
    // declares (a widget built against a newer kit would otherwise pick its own, which it does not have).
    ...Object.fromEntries(
      UI_NAMES.filter(wanted).map((name) => {
        const loading = ui.then((m) => () => m.UI_MODULES[name]);
        // A chunk that cannot be loaded fails the widgets that wait for it, each in its slot; unasked, it is no error of its own.
        loading.catch(() => undefined);
        return [name, { ...offer(name), loading, get: () => loading }];
      }),
    ),
    ...Object.fromEntries(
      Object.entries(LAZY).filter(([name]) => wanted(name)).map(([name, load]) => [name, { ...offer(name as LazyHostModule), get: () => load().then((mod) => () => mod) }]),
    ),
  };
}

function readManifest(): Record<string, ManifestEntry> {
  const el = document.getElementById('widget-manifest');
  if (!el?.textContent) return {};
  try {
    return JSON.parse(el.textContent) as Record<string, ManifestEntry>;
  } catch {
    return {};
  }
}

function showFailure(el: HTMLElement): void {
  el.removeAttribute('data-loading');
  el.setAttribute('data-failed', '');
  const box = document.createElement('div');
  box.className = 'alert alert-error';
  box.setAttribute('role', 'alert');
  box.textContent = LOAD_FAILED;
  el.replaceChildren(box);
}

/**
 * On a phone the header's menu scrolls sideways: its current item is brought into view — at the
 * start, and again whenever the window narrows so that it is hidden (a turned tablet, a resized
 * window) — and the sides that hide items fade out (`data-more-left`, `data-more-right`), so the
 * menu shows it scrolls.
 */
function followMenu(): void {
  const menu = document.querySelector<HTMLElement>('.site-nav');
  if (!menu) return;
  const update = () => {
    const hidden = menu.scrollWidth - menu.clientWidth;
    menu.toggleAttribute('data-more-left', hidden > 1 && menu.scrollLeft > 1);
    menu.toggleAttribute('data-more-right', hidden > 1 && menu.scrollLeft < hidden - 1);
  };
  const current = menu.querySelector('[aria-current="page"]');
  const showCurrent = () => {
    if (!current || menu.scrollWidth <= menu.clientWidth) return;
    const box = menu.getBoundingClientRect();
    const item = current.getBoundingClientRect();
    if (item.left >= box.left - 1 && item.right <= box.right + 1) return;
    menu.scrollLeft += item.left - box.left - (box.width - item.width) / 2;
  };
  showCurrent();
  update();
  menu.addEventListener('scroll', update, { passive: true });
  window.addEventListener('resize', () => {
    showCurrent();
    update();
  });
}

/** A loading state a widget shows (its skeleton, a list being read); a busy button is not one. */
const BUSY = '[aria-busy="true"]:not(button)';
/** The longest a slot keeps its skeleton's height for a widget still loading (a safety net: the widget's loading state ends it long before). */
const HOLD_MAX_MS = 10_000;

/**
 * A widget that loads its data after it mounts (`data-hold`) first draws a loading state of its
 * own, of another shape than the page's skeleton of it. Until it shows no loading state any more
 * (and has drawn something), the slot keeps the skeleton's height with the widget's drawing
 * hidden, and a copy of the skeleton stays where it was (the widget's first render replaces the
 * original): the page looks the same until the widget has its data, and nothing moves meanwhile.
 */
function holdSpace(el: HTMLElement): void {
  const skeleton = el.querySelector<HTMLElement>(':scope > .widget-skeleton');
  const box = el.getBoundingClientRect();
  if (!skeleton || box.height <= 0) return;
  const ghost = skeleton.cloneNode(true) as HTMLElement;
  ghost.className = 'widget-ghost';
  Object.assign(ghost.style, { top: `${String(box.top + window.scrollY)}px`, left: `${String(box.left + window.scrollX)}px`, width: `${String(box.width)}px`, height: `${String(box.height)}px` });
  document.body.append(ghost);
  el.style.height = `${String(box.height)}px`;
  el.setAttribute('data-holding', '');
  let timer = 0;
  const release = () => {
    observer.disconnect();
    clearTimeout(timer);
    ghost.remove();
    el.style.removeProperty('height');
    el.removeAttribute('data-holding');
  };
  const observer = new MutationObserver(() => {
    if (el.childElementCount > 0 && !el.querySelector('.widget-skeleton') && !el.querySelector(BUSY)) release();
  });
  observer.observe(el, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
  timer = window.setTimeout(release, HOLD_MAX_MS);
}

/**
 * Mounts every widget of the page: the federation runtime (one per page, which the widgets'
 * remotes use too) learns each widget's remote from the manifest, and each widget's exposed
 * `./mount` is loaded (its files are already on their way: the page links them as modulepreload).
 * `ui` is React's chunk (`ui.ts`), imported beside this one: the remotes start before it has
 * arrived, and their shares of React and the kit are answered when it has.
 */
export async function boot(ui: Promise<UiModule>): Promise<void> {
  followMenu();
  // Dialogs add a <style> element (scroll lock); the page's CSP allows it with this nonce, which their style helper reads from here.
  const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
  if (nonce) (globalThis as Record<string, unknown>).__webpack_nonce__ = nonce;
  // The query client holds what the server read before any widget mounts; when React's chunk
  // cannot be loaded, each widget's slot says so (below), and a page without widgets has nothing to say.
  const seeded = ui.then((m) => m.seedPageData());
  seeded.catch(() => undefined);
  const manifest = readManifest();
  const elements = Array.from(document.querySelectorAll<HTMLElement>('[data-widget]'));
  const remotes = Object.values(manifest)
    .map((m) => ({ name: m.remote, entry: new URL(m.entry, location.href).href, type: 'module' }));
  const federation = createInstance({
    name: 'ns_host',
    remotes,
    shared: hostShared(Object.values(manifest), ui),
    shareStrategy: 'loaded-first',
    plugins: [
      // Its declared hook type is narrower than the runtime's; the hook returns what it is given.
      injectExternalRuntimeCore() as ModuleFederationRuntimePlugin,
    ],
  });
  await Promise.all(
    elements.map(async (el) => {
      const name = el.dataset.widget ?? '';
      try {
        const remote = manifest[name]?.remote;
        if (!remote) throw new Error(`widget ${name} is not built`);
        const [mod] = await Promise.all([federation.loadRemote<WidgetModule>(`${remote}/${EXPOSED_MOUNT.slice(2)}`), seeded]);
        if (typeof mod?.mount !== 'function') throw new Error(`widget ${name} has no mount`);
        const props: unknown = JSON.parse(el.dataset.props ?? '{}');
        if (el.hasAttribute('data-hold')) holdSpace(el);
        el.removeAttribute('data-loading');
        mod.mount(el, props);
        el.setAttribute('data-mounted', '');
      } catch (err) {
        console.error(err);
        showFailure(el);
      }
    }),
  );
}
