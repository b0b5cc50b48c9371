/**
 * Stands in for `@ungap/structured-clone` in every widget's build (`widgetConfig`), for those that
 * hold the Markdown renderer: mdast-util-to-hast
 * imports that polyfill and calls it with one argument, which it hands to the browser's own
 * `structuredClone` when there is one — every browser the build targets has it (es2022).
 */
export default globalThis.structuredClone;
