/**
 * A test-runner command that reads Chromium's own accessibility tree (what screen readers get),
 * through the DevTools protocol: each node's role, name and description, in document order.
 * Browser tests call it as `executeServerCommand('accessibility-tree')`.
 */
export function accessibilityTreePlugin() {
  return {
    name: 'accessibility-tree',
    async executeCommand({ command, session }) {
      if (command !== 'accessibility-tree') return undefined;
      if (session.browser.type !== 'playwright') throw new Error('The accessibility tree needs Playwright.');
      const page = session.browser.getPage(session.id);
      const cdp = await page.context().newCDPSession(page);
      try {
        const { nodes } = await cdp.send('Accessibility.getFullAXTree');
        return nodes
          .filter((node) => !node.ignored)
          .map((node) => ({
            role: String(node.role?.value ?? ''),
            name: String(node.name?.value ?? ''),
            description: String(node.description?.value ?? ''),
          }));
      } finally {
        await cdp.detach();
      }
    },
  };
}
