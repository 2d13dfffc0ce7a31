/**
 * Typed contexts for the app's state objects: App.svelte creates one of each and sets them;
 * components get them here instead of importing singletons (theme is the one true global).
 * It sits above the family folders (shared/, syntaxgym/, …) because it names classes of several.
 */
import { createContext } from 'svelte';
import type { AppRouter } from './shared/app-route.svelte';
import type { BatteryPicker } from './syntaxgym/battery-picker.svelte';
import type { EndpointSettings } from './shared/endpoint-settings.svelte';
import type { ModelCatalog } from './shared/model-catalog.svelte';
import type { SuiteRunComparison } from './syntaxgym/suite-run-comparison.svelte';
import type { RunHistory } from './shared/run-history.svelte';
import type { SuiteRunResults } from './syntaxgym/suite-run-results.svelte';
import type { SuiteRunSession } from './syntaxgym/suite-run-session.svelte';
import type { SuiteLibrary } from './syntaxgym/suite-library.svelte';

export const [getAppRouter, setAppRouter] = createContext<AppRouter>();
export const [getSuiteLibrary, setSuiteLibrary] = createContext<SuiteLibrary>();
export const [getModelCatalog, setModelCatalog] = createContext<ModelCatalog>();
/** The app's one endpoint choice (base URL, model id, key): every page and session uses it. */
export const [getEndpointSettings, setEndpointSettings] = createContext<EndpointSettings>();
export const [getSuiteRunSession, setSuiteRunSession] = createContext<SuiteRunSession>();
export const [getRunHistory, setRunHistory] = createContext<RunHistory>();
export const [getSuiteRunResults, setSuiteRunResults] = createContext<SuiteRunResults>();
export const [getSuiteRunComparison, setSuiteRunComparison] = createContext<SuiteRunComparison>();
/** The Battery page's picked suites: kept while the user visits other pages. */
export const [getBatteryPicker, setBatteryPicker] = createContext<BatteryPicker>();
