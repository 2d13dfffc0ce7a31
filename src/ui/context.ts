/**
 * Typed contexts for the app's state objects: App.svelte creates one of each and sets them;
 * components get them here instead of importing singletons (theme is the one true global).
 */
import { createContext } from 'svelte';
import type { AppRouter } from './state/app-route.svelte';
import type { BatteryPicker } from './state/battery-picker.svelte';
import type { EndpointSettings } from './state/endpoint-settings.svelte';
import type { ModelCatalog } from './state/model-catalog.svelte';
import type { RunComparison } from './state/run-comparison.svelte';
import type { RunHistory } from './state/run-history.svelte';
import type { RunResults } from './state/run-results.svelte';
import type { RunSession } from './state/run-session.svelte';
import type { SuiteLibrary } from './state/suite-library.svelte';

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
