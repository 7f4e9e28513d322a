/** How to unpack a download, from the URL's file name (the registry's formats: zip, tar.gz/tgz, tar.bz2/tbz2, raw). */
export type ArchiveKind = 'zip' | 'tar' | 'tar.bz2' | 'raw';

const INSTALLERS = ['.dmg', '.pkg', '.deb', '.rpm', '.msi', '.appimage'];

export function archiveKind(url: string): ArchiveKind {
  const name = new URL(url).pathname.toLowerCase();
  if (name.endsWith('.zip')) return 'zip';
  if (name.endsWith('.tar.gz') || name.endsWith('.tgz') || name.endsWith('.tar')) return 'tar';
  if (name.endsWith('.tar.bz2') || name.endsWith('.tbz2')) return 'tar.bz2';
  const installer = INSTALLERS.find((suffix) => name.endsWith(suffix));
  if (installer)
    throw new Error(
      `${url} is an installer (${installer}), which the ACP registry does not support; only archives and raw binaries install.`,
    );
  return 'raw';
}
