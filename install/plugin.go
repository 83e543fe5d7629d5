package install

// PluginName is the name of saverd's plugin (this repository's plugins/saver): Claude Code namespaces a
// plugin's command as <plugin>:<command>, so the plugin's command is /saver:saver.
const PluginName = "saver"
