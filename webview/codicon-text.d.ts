// The codicons' stylesheet, bundled as text (esbuild.mjs: the chat bundle's `.css` loader) for codicon-sheet.ts.
declare module '@vscode/codicons/dist/codicon.css' {
  const text: string;
  export default text;
}
