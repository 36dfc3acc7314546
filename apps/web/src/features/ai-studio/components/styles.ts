export const TEXTAREA =
  'block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 font-mono text-sm text-gray-900 placeholder:text-gray-400 focus:outline-2 focus:outline-blue-600 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 dark:placeholder:text-gray-500';
export const TEXTAREA_INVALID = 'border-red-500 focus:outline-red-500 dark:border-red-500';
export const SELECT =
  'block h-10 rounded-lg border border-gray-300 bg-white px-3 text-sm text-gray-900 focus:outline-2 focus:outline-blue-600 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100';
export const LABEL = 'block text-sm font-medium text-gray-700 dark:text-gray-300';
export const ERROR_TEXT = 'mt-1 text-sm text-red-600 dark:text-red-400';
