/**
 * The archive libraries, in a file of their own (esbuild.mjs: dist/archive-libs.js): only installing a registry agent
 * needs them, so the bundle VS Code loads at start leaves them out. Import it with `await import('./archive-libs')`.
 */
export * as tar from 'tar';
export { default as unbzip2 } from 'unbzip2-stream';
export * as yauzl from 'yauzl';
