import { readdirSync, realpathSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';

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
 * Each parent folder is listed once (most protected names share a home), and only names found there are looked up;
 * synchronous on purpose, as a handful of directory reads take less than queuing them on the thread pool.
 */
export function existingLocations(locations: readonly string[]): ExistingLocations {
  const listings = new Map<string, Set<string> | undefined>();
  const listed = (folder: string): Set<string> | undefined => {
    if (!listings.has(folder)) {
      try {
        listings.set(folder, new Set(readdirSync(folder)));
      } catch {
        listings.set(folder, undefined);
      }
    }
    return listings.get(folder);
  };
  const hostKeys = [...(listed('/etc/ssh') ?? [])]
    .filter((name) => /^ssh_host_.*_key$/.test(name))
    .map((name) => join('/etc/ssh', name));
  const directories = new Set<string>();
  const files = new Set<string>();
  for (const location of [...locations, ...hostKeys]) {
    if (!listed(dirname(location))?.has(basename(location))) continue;
    try {
      const real = realpathSync(location);
      (statSync(real).isDirectory() ? directories : files).add(real);
    } catch {
      // A dangling link, or gone since the listing: nothing to hide.
    }
  }
  return { directories: [...directories], files: [...files] };
}
