import { render } from 'preact';
import { takeTokenFromUrl } from './api.js';
import { App } from './app.js';
import './styles.css';

takeTokenFromUrl();
render(<App />, document.getElementById('app') as HTMLElement);
