import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { configFilePath } from '../config/config-path.js';
import { defaultDatabasePath } from '../stores/open-store.js';
import { configHome, dataHome, scratchpadConfigDir, scratchpadDataDir } from './xdg.js';

describe('XDG directories', () => {
  it('the database path, the runtime folders and the config file follow an injected HOME alike', () => {
    const env = { HOME: '/home/someone' };
    expect(dataHome(env)).toBe('/home/someone/.local/share');
    expect(configHome(env)).toBe('/home/someone/.config');
    expect(defaultDatabasePath(env)).toBe('/home/someone/.local/share/scratchpad/scratchpad.db');
    expect(scratchpadDataDir(env)).toBe('/home/someone/.local/share/scratchpad');
    expect(scratchpadConfigDir(env)).toBe('/home/someone/.config/scratchpad');
    expect(configFilePath(env)).toBe('/home/someone/.config/scratchpad/config.toml');
  });

  it('XDG variables win; empty ones and a missing HOME fall back', () => {
    expect(dataHome({ HOME: '/h', XDG_DATA_HOME: '/data' })).toBe('/data');
    expect(configHome({ HOME: '/h', XDG_CONFIG_HOME: '/conf' })).toBe('/conf');
    expect(dataHome({ HOME: '/h', XDG_DATA_HOME: '' })).toBe('/h/.local/share');
    expect(configHome({})).toBe(`${homedir()}/.config`);
  });
});
