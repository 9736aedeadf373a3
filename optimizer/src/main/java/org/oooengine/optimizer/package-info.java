/** Statistics, calibrated cost models and left-deep join-order search (arrives with the optimizer work). */
package org.oooengine.optimizer;
