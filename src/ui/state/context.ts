/**
 * Typed contexts for the app's state objects: App.svelte creates one of each and sets them;
 * components get them here instead of importing singletons (theme is the one true global).
 */
import { createContext } from 'svelte';
import type { AppRouter } from './app-route.svelte';
import type { BatteryPicker } from './battery-picker.svelte';
import type { EndpointSettings } from './endpoint-settings.svelte';
import type { ModelCatalog } from './model-catalog.svelte';
import type { RunComparison } from './run-comparison.svelte';
import type { RunHistory } from './run-history.svelte';
import type { RunResults } from './run-results.svelte';
import type { RunSession } from './run-session.svelte';
import type { SuiteLibrary } from './suite-library.svelte';

export const [getAppRouter, setAppRouter] = createContext<AppRouter>();
export const [getSuiteLibrary, setSuiteLibrary] = createContext<SuiteLibrary>();
export const [getModelCatalog, setModelCatalog] = createContext<ModelCatalog>();
/** The app's one endpoint choice (base URL, model id, key): every page and session uses it. */
export const [getEndpointSettings, setEndpointSettings] = createContext<EndpointSettings>();
export const [getRunSession, setRunSession] = createContext<RunSession>();
export const [getRunHistory, setRunHistory] = createContext<RunHistory>();
export const [getRunResults, setRunResults] = createContext<RunResults>();
export const [getRunComparison, setRunComparison] = createContext<RunComparison>();
/** The Battery page's picked suites: kept while the user visits other pages. */
export const [getBatteryPicker, setBatteryPicker] = createContext<BatteryPicker>();
