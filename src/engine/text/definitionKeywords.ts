/**
 * The keywords that open a definition in common languages (`def`, `class`, `fn`, `func`, `defmodule`…): what an
 * outline of a file lists, and what tells a search's hit that defines a name from one that uses it.
 */
export const DEFINITION_KEYWORDS: readonly string[] = [
  'def',
  'class',
  'function',
  'interface',
  'type',
  'enum',
  'struct',
  'impl',
  'fn',
  'func',
  'module',
  'defmodule',
];
