import React from 'react';
import ReactDOM from 'react-dom';
import * as ReactDOMClient from 'react-dom/client';
import * as JsxRuntime from 'react/jsx-runtime';
import * as zod from 'zod';
import { createInstance } from '@module-federation/runtime';
import * as runtimeCore from '@module-federation/runtime/core';
import '@app/kit/styles.css';

interface ManifestEntry {
  name: string;
  entry: string;
}
type WidgetModule = { mount: (el: HTMLElement, props: unknown) => () => void };

declare global {
  // The runtime core that remotes built with `externalRuntime` look up.
  var _FEDERATION_RUNTIME_CORE: unknown;
  interface Window {
    /** Resolves when every widget of the page has mounted (or failed); used by tests and benchmarks. */
    __widgetsReady?: Promise<void>;
  }
}

const LOAD_FAILED = 'Не удалось загрузить модуль страницы. Обновите страницу.';
const remoteName = (widget: string) => `widget_${widget.replace(/-/g, '_')}`;

function readManifest(): Record<string, ManifestEntry> {
  const el = document.getElementById('widget-manifest');
  if (!el?.textContent) return {};
  try {
    return JSON.parse(el.textContent) as Record<string, ManifestEntry>;
  } catch {
    return {};
  }
}

function shared<T>(version: string, lib: T, requiredVersion: string) {
  return { version, lib: () => lib, shareConfig: { singleton: true, requiredVersion } };
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

async function boot(): Promise<void> {
  // Remotes are built with `externalRuntime`: they use this one runtime core.
  globalThis._FEDERATION_RUNTIME_CORE ??= runtimeCore;

  const manifest = readManifest();
  const elements = Array.from(document.querySelectorAll<HTMLElement>('[data-widget]'));
  const names = [...new Set(elements.map((el) => el.dataset.widget ?? ''))].filter((name) => manifest[name]);
  const mf = createInstance({
    name: 'host',
    remotes: names.map((name) => ({ name: remoteName(name), entry: (manifest[name] as ManifestEntry).entry, type: 'module' })),
    shared: {
      react: shared(React.version, React, '^19.0.0'),
      'react-dom': shared(React.version, ReactDOM, '^19.0.0'),
      'react-dom/client': shared(React.version, ReactDOMClient, '^19.0.0'),
      'react/jsx-runtime': shared(React.version, JsxRuntime, '^19.0.0'),
      zod: shared('4.6.7', zod, '^4.2.0'),
    },
  });

  await Promise.all(
    elements.map(async (el) => {
      const name = el.dataset.widget ?? '';
      try {
        if (!manifest[name]) throw new Error(`widget ${name} is not built`);
        const mod = await mf.loadRemote<WidgetModule>(`${remoteName(name)}/mount`);
        if (!mod) throw new Error(`widget ${name} has no mount`);
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

window.__widgetsReady = boot();
