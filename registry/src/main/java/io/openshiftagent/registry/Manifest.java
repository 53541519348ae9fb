package io.openshiftagent.registry;

import java.util.List;

/**
 * What a registry answered for a tag: the digest of the manifest (or manifest list) it points to,
 * its media type, and for a list the architectures it has images for ({@code linux} ones).
 */
public record Manifest(String digest, String mediaType, List<String> architectures, boolean list) {}
