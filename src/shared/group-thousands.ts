/**
 * 48200 -> "48,200", for numbers the chat shows. Not toLocaleString: its first call loads locale data (36 ms in
 * Node here, a long task in a webview), and when that call sat in a module's top level it ran while the chat
 * page loaded.
 */
export function groupThousands(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
