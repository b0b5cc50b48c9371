import * as React from 'react';
import * as ReactDOM from 'react-dom';
import * as ReactDOMClient from 'react-dom/client';
import * as JsxRuntime from 'react/jsx-runtime';
import * as JsxDevRuntime from 'react/jsx-dev-runtime';
import * as Contracts from '@app/contracts/browser';
import * as Kit from '@app/kit';
import { HOST_GLOBAL, HOST_MODULES, type EagerHostModule, type HostRegistry, type LazyHostModule } from '@app/widget-build/host-modules';

interface ManifestEntry {
  name: string;
  entry: string;
}
type WidgetModule = { mount?: (el: HTMLElement, props: unknown) => () => void };

const LOAD_FAILED = 'Не удалось загрузить модуль страницы. Обновите страницу.';

/** The modules every page gets with the loader. */
const EAGER: Record<EagerHostModule, object> = {
  react: React,
  'react-dom': ReactDOM,
  'react-dom/client': ReactDOMClient,
  'react/jsx-runtime': JsxRuntime,
  'react/jsx-dev-runtime': JsxDevRuntime,
  '@app/contracts/browser': Contracts,
  '@app/kit': Kit,
};

/** Chunks of the loader's build, fetched by a page only when one of its widgets imports them. */
const LAZY: Record<LazyHostModule, () => Promise<object>> = {
  '@app/kit/forms': () => import('@app/kit/forms'),
  '@app/kit/dialog': () => import('@app/kit/dialog'),
  '@app/kit/tabs': () => import('@app/kit/tabs'),
  '@app/kit/stream': () => import('@app/kit/stream'),
  '@app/contracts/generation': () => import('@app/contracts/generation'),
};

function createRegistry(): HostRegistry {
  const loaded = new Map<string, Promise<object>>();
  const isEager = (name: string): name is EagerHostModule => (HOST_MODULES.eager as readonly string[]).includes(name);
  const isLazy = (name: string): name is LazyHostModule => (HOST_MODULES.lazy as readonly string[]).includes(name);
  return {
    get(name) {
      if (!isEager(name)) throw new Error(`the page does not supply ${name}`);
      return EAGER[name];
    },
    load(name) {
      if (isEager(name)) return Promise.resolve(EAGER[name]);
      if (!isLazy(name)) return Promise.reject(new Error(`the page does not supply ${name}`));
      let pending = loaded.get(name);
      if (!pending) {
        pending = LAZY[name]();
        loaded.set(name, pending);
      }
      return pending;
    },
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
 * On a phone the header's menu scrolls sideways: its current item is brought into view, and the
 * sides that hide items fade out (`data-more-left`, `data-more-right`), so the menu shows it scrolls.
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
  if (current && menu.scrollWidth > menu.clientWidth) {
    const box = menu.getBoundingClientRect();
    const item = current.getBoundingClientRect();
    menu.scrollLeft += item.left - box.left - (box.width - item.width) / 2;
  }
  update();
  menu.addEventListener('scroll', update, { passive: true });
  window.addEventListener('resize', update);
}

/** Registers the host modules and mounts every widget of the page. */
export async function boot(): Promise<void> {
  followMenu();
  (globalThis as Record<string, unknown>)[HOST_GLOBAL] ??= createRegistry();
  // Dialogs add a <style> element (scroll lock); the page's CSP allows it with this nonce, which their style helper reads from here.
  const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
  if (nonce) (globalThis as Record<string, unknown>).__webpack_nonce__ = nonce;
  const manifest = readManifest();
  const elements = Array.from(document.querySelectorAll<HTMLElement>('[data-widget]'));
  await Promise.all(
    elements.map(async (el) => {
      const name = el.dataset.widget ?? '';
      try {
        const entry = manifest[name]?.entry;
        if (!entry) throw new Error(`widget ${name} is not built`);
        const mod = (await import(/* @vite-ignore */ entry)) as WidgetModule;
        if (typeof mod.mount !== 'function') throw new Error(`widget ${name} has no mount`);
        const props: unknown = JSON.parse(el.dataset.props ?? '{}');
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

