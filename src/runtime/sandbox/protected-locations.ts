import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';

/**
 * Secret locations hidden under every home folder of the machine, relative to the home: credentials of ssh, cloud
 * and container tools, package registries, git and password stores, and Scratchpad's own config (signing keys)
 * and data (store, logs, executors) at their default places.
 */
export const PROTECTED_HOME_LOCATIONS: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gcloud',
  '.azure',
  '.kube',
  '.docker',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.config/gh',
  '.pgpass',
  '.password-store',
  '.local/share/keyrings',
  '.vault-token',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.config/scratchpad',
  '.local/share/scratchpad',
];

/** Machine-wide secret locations. `/etc/ssh/ssh_host_*_key` (host private keys) are added when present. */
export const PROTECTED_SYSTEM_LOCATIONS: readonly string[] = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/sudoers',
  '/etc/sudoers.d',
  '/etc/ssl/private',
  '/etc/security/opasswd',
];

/** Existing protected locations, by kind, as real paths (a protected symbolic link hides what it points at). */
export interface ExistingLocations {
  directories: string[];
  files: string[];
}

/**
 * The home folders of the machine: `home` (the user's), `/root`, every folder in `/home`, and the homes of
 * `/etc/passwd` accounts with uid 0 or 1000 and above. System accounts' homes (`/usr/sbin`, `/var/mail`, …) are
 * left out: they hold no credentials of their own.
 */
export async function machineHomes(home: string): Promise<string[]> {
  const homes = new Set<string>([home, '/root']);
  try {
    for (const entry of await readdir('/home', { withFileTypes: true }))
      if (entry.isDirectory()) homes.add(join('/home', entry.name));
  } catch {
    // No /home on this machine.
  }
  try {
    for (const line of (await readFile('/etc/passwd', 'utf8')).split('\n')) {
      const fields = line.split(':');
      const uid = Number(fields[2]);
      const directory = fields[5];
      if (directory && isAbsolute(directory) && directory !== '/' && (uid === 0 || uid >= 1000))
        homes.add(directory);
    }
  } catch {
    // No readable /etc/passwd: the folders above still count.
  }
  return [...homes].filter((path) => path !== '/nonexistent');
}

/** Every protected location of the machine (existing or not): each home's, the system's, and `extra`. */
export function protectedLocations(homes: readonly string[], extra: readonly string[] = []): string[] {
  return [
    ...homes.flatMap((home) => PROTECTED_HOME_LOCATIONS.map((relative) => join(home, relative))),
    ...PROTECTED_SYSTEM_LOCATIONS,
    ...extra,
  ];
}

/**
 * Which of `locations` exist now, resolved to their real paths and split into folders and files (SSH host private
 * keys included). Checked at each call, so a location created during a session is hidden from the next call.
 */
export async function existingLocations(locations: readonly string[]): Promise<ExistingLocations> {
  const hostKeys = await readdir('/etc/ssh').then(
    (names) => names.filter((name) => /^ssh_host_.*_key$/.test(name)).map((name) => join('/etc/ssh', name)),
    () => [],
  );
  const found = await Promise.all(
    [...locations, ...hostKeys].map(async (location) => {
      try {
        await lstat(location);
        const real = await realpath(location);
        return { path: real, directory: (await stat(real)).isDirectory() };
      } catch {
        return undefined;
      }
    }),
  );
  const directories = new Set<string>();
  const files = new Set<string>();
  for (const item of found) {
    if (item) (item.directory ? directories : files).add(item.path);
  }
  return { directories: [...directories], files: [...files] };
}
