// The demo informer lands with the informer issue; until then this says so.
console.log('rxkube demo: the informer demo is not built yet (see docs/).');
