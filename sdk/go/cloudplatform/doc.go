// Kubernetes cluster upgrades, object-storage notification thresholds and lookups for the cloud platform HTTP API.
package cloudplatform
