/** The framework's version, the instrumentation scope's (a test keeps it equal to package.json's). */
export const FRAMEWORK_VERSION = '0.1.0';
