/**
 * The framework and the libraries it shares state with (tsyringe's container, class-validator's
 * metadata, reflect-metadata's registry) are loaded by Node at run time rather than bundled: one
 * copy of each, so the decorators in lib/ and the framework see the same registries.
 * @type {import('next').NextConfig}
 */
const nextConfig = {
  serverExternalPackages: [
    '@mcpfusion/core',
    'reflect-metadata',
    'tsyringe',
    'class-validator',
    'class-transformer',
    'class-validator-jsonschema'
  ]
};

export default nextConfig;
