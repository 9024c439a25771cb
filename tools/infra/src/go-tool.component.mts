/**
 * What a component whose process is a Go tool we build (go-tool.build.mts) takes from that
 * tool: the binary is both what identifies its process and what provisioning makes.
 */
import type { Component } from './component.types.mts';
import type { GoTool } from './go-tool.build.mts';
import { buildGoTool, goToolBinary } from './go-tool.build.mts';

export function goToolComponent(tool: GoTool): Pick<Component, 'marker' | 'provision'> {
  return {
    // The binary path is under $LONGHAUL_HOME, so it is ours and no one else's.
    marker: (config) => goToolBinary(config, tool),
    provision: (config) => buildGoTool(config, tool),
  };
}
